"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");

const { groongaFilter, nameOf } = require("../../../src/plugins/site-search/server/services/search/groonga-store");
const { queryTerms } = require("../../../src/plugins/site-search/server/services/search/query-terms");

const MATCH = '"title_words * 10 || description_words * 4 || body_words"';
const call = (word) => `query(${MATCH}, "${word} OR ${word}*", {"flags": "NONE"})`;

// What of a visitor's query reaches Groonga (docs/search.md, "Groonga"): its words, folded, each
// inside a string literal of a filter the store writes; nothing of Groonga's syntax.
test("a query's words become one query() per word, all required", () => {
  assert.equal(groongaFilter(["berlin", "Büros"]), `${call("berlin")} && ${call("buros")}`);
  assert.equal(groongaFilter([]), "");
});

test("Groonga's query and script syntax in a query never reaches the filter", () => {
  for (const hostile of [
    "OR title:@x",
    "-",
    "(",
    '"',
    "\\",
    'x" || true || "',
    'query("title", "x")',
    "_key:@x *E-1",
    "x*",
    "a)(b",
  ]) {
    const filter = groongaFilter(queryTerms(hostile, 8));
    const words = filter === "" ? [] : filter.split(" && ");
    for (const part of words)
      assert.match(part, /^query\("[^"]*", "[\p{L}\p{N}]+ OR [\p{L}\p{N}]+\*", \{"flags": "NONE"\}\)$/u);
  }
  assert.equal(groongaFilter(queryTerms('x" || true || "', 8)), `${call("x")} && ${call("true")}`);
});

test("a term that is not a word (queryTerms never gives one) is dropped, not quoted", () => {
  assert.equal(groongaFilter(['x" || true || "', "ok"]), call("ok"));
});

test("a locale is a part of a Groonga name: letters and digits kept, the rest as _<hex>", () => {
  assert.equal(nameOf("en"), "en");
  assert.equal(nameOf("pt-BR"), "pt_2dBR");
  assert.equal(nameOf("x_y"), "x_5fy");
  assert.match(nameOf('de"; table_remove'), /^[A-Za-z0-9_]+$/);
});
