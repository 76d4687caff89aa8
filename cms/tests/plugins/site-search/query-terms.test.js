"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");

const {
  fts5Match,
  queryTerms,
  tsQuery,
  MAX_TERM,
} = require("../../../src/plugins/site-search/server/services/search/query-terms");

// What of a visitor's query reaches the index's query language: words only (docs/search.md).
test("a query becomes its words: letters and digits of any script, lower case, distinct, bounded", () => {
  assert.deepEqual(queryTerms("Berlin OFFICE berlin 2026", 8), ["berlin", "office", "2026"]);
  assert.deepEqual(queryTerms("Kaffeemaschine, Büro!", 8), ["kaffeemaschine", "büro"]);
  assert.deepEqual(queryTerms("a b c d e f g h i j", 8), ["a", "b", "c", "d", "e", "f", "g", "h"]);
  assert.equal(queryTerms("x".repeat(500), 8)[0].length, MAX_TERM);
  assert.deepEqual(queryTerms("", 8), []);
  assert.deepEqual(queryTerms(undefined, 8), []);
});

test("the syntax of FTS5 and tsquery never survives: a query can neither fail nor widen", () => {
  for (const hostile of [
    '"',
    '" OR "',
    "title:x*",
    "NEAR(a b)",
    "a)(",
    "!x & y | z <-> w",
    "'x':*",
    "^x",
    "-x",
    "x\u0000y",
  ]) {
    for (const term of queryTerms(hostile, 8)) assert.match(term, /^[\p{L}\p{N}]+$/u, hostile);
  }
  assert.deepEqual(queryTerms('" OR "', 8), ["or"]);
  assert.deepEqual(queryTerms("*** --- ()", 8), []);
  assert.equal(fts5Match(["berlin", "or"]), '"berlin"* "or"*');
  assert.equal(tsQuery(["berlin", "office"]), "berlin:* & office:*");
});
