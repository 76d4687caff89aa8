"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");

const {
  fold,
  foldTerms,
  markAll,
  searchText,
  snippet,
} = require("../../../src/plugins/site-search/server/services/search/search-words");

const shown = (value) => value.replace(/\u0002/g, "[").replace(/\u0003/g, "]");

test("words are folded so that Groonga's stem filter (ASCII words only) stems them", () => {
  assert.equal(fold("Häuser"), "hauser");
  assert.equal(fold("Straße"), "strasse");
  assert.equal(fold("CAFÉ"), "cafe");
  assert.equal(fold("Ærø"), "aero");
  assert.equal(fold("Москва"), "москва");
  assert.deepEqual(foldTerms(["büro", "buro", "office"]), ["buro", "office"]);
});

test("the indexed text is the words alone, one space apart, each cut like a query's word", () => {
  assert.equal(searchText('Acme: <b>the</b> "Büro", remote-first!'), "acme b the b buro remote first");
  assert.equal(searchText(""), "");
  assert.equal(searchText(null), "");
  assert.equal(searchText("x".repeat(100)).length, 40);
});

test("a word that begins with a term or its stem is marked whole; the rest is the text as it was", () => {
  assert.equal(shown(markAll("Acme opens its Berlin office", ["berlin", "offic"])), "Acme opens its [Berlin] [office]");
  assert.equal(shown(markAll("Ein Büro in Berlin", ["buro"])), "Ein [Büro] in Berlin");
  // Markup in the text stays text: the page renders it escaped (app/lib/search/marked-text.ts).
  assert.equal(shown(markAll('<img src=x onerror="a()"> art', ["art"])), '<img src=x onerror="a()"> [art]');
  // A term inside a word is no match: "art" does not mark "party".
  assert.equal(shown(markAll("party", ["art"])), "party");
});

test("a snippet is the words around the first match, marked, with … where text is left out", () => {
  const words = Array.from({ length: 40 }, (_, i) => `w${i}`);
  words[20] = "Berlin";
  const text = words.join(" ");
  assert.equal(shown(snippet(text, ["berlin"], 6)), "…w17 w18 w19 [Berlin] w21 w22…");
  assert.equal(shown(snippet(text, ["nothing"], 3)), "w0 w1 w2…");
  assert.equal(shown(snippet("Short, and berlin.", ["berlin"], 24)), "Short, and [berlin].");
  assert.equal(shown(snippet(text, ["w39"], 4)), "…w36 w37 w38 [w39]");
  assert.equal(snippet("", ["x"], 4), "");
});
