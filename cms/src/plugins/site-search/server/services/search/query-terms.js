"use strict";

/**
 * A visitor's query as the words it searches for: runs of letters and digits (any script), folded
 * to lower case, the first `maxTerms` distinct ones, each at most MAX_TERM characters. Nothing else
 * of the input reaches the database: no quote, operator, column filter or parenthesis of FTS5's or
 * tsquery's syntax can be written with letters and digits alone, so a query can neither fail nor
 * ask for more than an AND of word prefixes. An input with no word ("???", "--") gives [].
 */
const MAX_TERM = 40;

function queryTerms(input, maxTerms) {
  const words = String(input ?? "")
    .normalize("NFKC")
    .toLowerCase()
    .match(/[\p{L}\p{N}]+/gu);
  if (!words) return [];
  const terms = [];
  for (const word of words) {
    const term = word.slice(0, MAX_TERM);
    if (!terms.includes(term)) terms.push(term);
    if (terms.length === maxTerms) break;
  }
  return terms;
}

/** FTS5: every term a quoted prefix query, all of them required (`"publish"* "cache"*`). */
const fts5Match = (terms) => terms.map((term) => `"${term}"*`).join(" ");

/** tsquery: the same, as prefixes joined with `&` (`publish:* & cache:*`), parsed by to_tsquery with the locale's configuration. */
const tsQuery = (terms) => terms.map((term) => `${term}:*`).join(" & ");

module.exports = { queryTerms, fts5Match, tsQuery, MAX_TERM };
