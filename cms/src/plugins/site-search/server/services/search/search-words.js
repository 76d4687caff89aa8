"use strict";

const { MARK_START, MARK_END } = require("./document-text");
const { MAX_TERM } = require("./query-terms");

/**
 * The words of a text as the Groonga store indexes and marks them (docs/search.md). Groonga's stem
 * filter stems a word only when it is made of ASCII letters and digits, so a word is folded first
 * (lower case, accents removed, ß as ss: "Häuser" is indexed as "hauser", stemmed "haus"), as
 * SQLite's index removes diacritics; a word of another script is indexed as it is (not stemmed).
 * Words are the query's words (query-terms.js): runs of letters and digits, at most MAX_TERM
 * characters, so what is indexed and what is asked for are cut the same way.
 */
const WORD = /[\p{L}\p{N}]+/gu;
const LETTERS = { ß: "ss", æ: "ae", œ: "oe", ø: "o", ł: "l", đ: "d", ð: "d", þ: "th", ı: "i" };

const fold = (word) =>
  word
    .normalize("NFKC")
    .toLowerCase()
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .replace(/[ßæœøłđðþı]/g, (letter) => LETTERS[letter])
    .normalize("NFC");

/** What Groonga indexes of a text: its folded words, one space apart (TokenDelimit's tokens). */
const searchText = (text) =>
  (String(text ?? "").match(WORD) ?? []).map((word) => fold(word).slice(0, MAX_TERM)).join(" ");

/** A query's terms folded like the indexed words (never empty: a term is letters or digits, which folding keeps). */
const foldTerms = (terms) => [...new Set(terms.map(fold).filter(Boolean))];

function wordsOf(text) {
  return [...String(text ?? "").matchAll(WORD)].map((match) => ({
    start: match.index,
    end: match.index + match[0].length,
    word: match[0],
  }));
}

/**
 * `text` between `from` and `to` (offsets), its words that begin with one of `prefixes` (folded
 * terms and their stems) between MARK_START and MARK_END, the rest as it is: the page splits on the
 * two characters and renders `<mark>` elements (app/lib/search/marked-text.ts), never HTML.
 */
function marked(text, words, prefixes, from = 0, to = text.length) {
  let out = "";
  let at = from;
  for (const { start, end, word } of words) {
    if (start < from || end > to) continue;
    const folded = fold(word);
    if (!prefixes.some((prefix) => folded.startsWith(prefix))) continue;
    out += `${text.slice(at, start)}${MARK_START}${word}${MARK_END}`;
    at = end;
  }
  return out + text.slice(at, to);
}

const markAll = (text, prefixes) => marked(String(text ?? ""), wordsOf(text), prefixes);

/**
 * At most `maxWords` words of `text` around its first matched word (three words of context before
 * it), marked, with "…" where text was left out: what SQLite's snippet() gives the other store.
 * Without a match, its first `maxWords` words.
 */
function snippet(text, prefixes, maxWords) {
  const value = String(text ?? "");
  const words = wordsOf(value);
  if (words.length === 0) return value.trim();
  const first = words.findIndex(({ word }) => prefixes.some((prefix) => fold(word).startsWith(prefix)));
  const from = Math.max(0, Math.min(first < 0 ? 0 : first - 3, words.length - maxWords));
  const to = Math.min(words.length, from + maxWords);
  const start = from === 0 ? 0 : words[from].start;
  const end = to === words.length ? value.length : words[to - 1].end;
  return `${from > 0 ? "…" : ""}${marked(value, words, prefixes, start, end)}${to < words.length ? "…" : ""}`.trim();
}

module.exports = { fold, searchText, foldTerms, markAll, snippet };
