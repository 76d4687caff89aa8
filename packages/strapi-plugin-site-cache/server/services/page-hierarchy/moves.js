"use strict";

const { normalise, prefixedPath, sitePath } = require("../../utils/site-paths");

/**
 * Pure computations of a hierarchy batch (unit-tested in moves.test.js): which published pages
 * moved, and how the redirects change so that every old URL keeps working — without chains
 * (A→B, B→C becomes A→C) and without loops (no redirect whose source is a live page, none
 * pointing at itself).
 *
 * Paths: a page's `fullPath` has no locale ('/company/careers'). A redirect `source` is always
 * locale-prefixed ('/en/company/careers'), its `destination` is a path as the site serves it
 * ('/about/careers' in the default locale, '/de/about/careers' otherwise). Internally
 * destinations are compared in their locale-prefixed form ("key").
 */

const keyOf = (row) => `${row.documentId}|${row.locale}`;

/** Published page rows before and after → [{ documentId, locale, oldPath, newPath }]. */
function diffPaths(before, after) {
  const old = new Map(before.map((row) => [keyOf(row), row.fullPath]));
  const moves = [];
  for (const row of after) {
    const oldPath = old.get(keyOf(row));
    if (oldPath !== undefined && oldPath !== null && row.fullPath && oldPath !== row.fullPath) {
      moves.push({ documentId: row.documentId, locale: row.locale, oldPath, newPath: row.fullPath });
    }
  }
  return moves.sort((a, b) => (a.locale + a.oldPath).localeCompare(b.locale + b.oldPath));
}

/** A destination (site form or already prefixed) → its locale-prefixed form. */
function destinationKey(destination, { locales, defaultLocale }) {
  const path = normalise(destination);
  const first = path.split("/")[1];
  if (first && locales.includes(first)) return path;
  return prefixedPath(path, defaultLocale);
}

/** Locale-prefixed key → the path as the site serves it. */
function siteFromKey(key, { locales, defaultLocale }) {
  const path = normalise(key);
  const first = path.split("/")[1];
  if (!first || !locales.includes(first)) return path;
  const rest = path.slice(first.length + 1) || "/";
  return sitePath(rest, first, defaultLocale);
}

/**
 * The redirect changes of a batch.
 * - moves: from diffPaths;
 * - redirects: the existing ones, [{ documentId, source, destination, permanent }];
 * - livePaths: locale-prefixed paths of every published page after the batch;
 * - touched (optional): locale-prefixed paths whose redirects may be removed for shadowing a
 *   live page; default: every live path.
 * Returns { create: [{ source, destination, permanent }], update: [{ documentId, source,
 * destination }], remove: [{ documentId, source }] } — destinations in site form.
 */
function planRedirects({ moves, redirects, livePaths, touched, locales, defaultLocale }) {
  const opts = { locales, defaultLocale };
  const live = new Set(livePaths);
  const mayRemove = touched ? new Set(touched) : live;
  const working = new Map();
  for (const r of redirects) {
    const source = normalise(r.source);
    working.set(source, { ...r, source, key: destinationKey(r.destination, opts), existing: true });
  }
  const moved = new Map(moves.map((m) => [prefixedPath(m.oldPath, m.locale), prefixedPath(m.newPath, m.locale)]));

  // Existing redirects into a moved path follow it (no chain through the old path).
  for (const entry of working.values()) {
    if (moved.has(entry.key)) entry.key = moved.get(entry.key);
  }
  // Every old path of a moved page redirects to its new path.
  for (const [oldKey, newKey] of moved) {
    const entry = working.get(oldKey);
    if (entry) entry.key = newKey;
    else working.set(oldKey, { source: oldKey, key: newKey, permanent: true, existing: false });
  }

  const removed = new Set();
  // Loops: a redirect whose source is a live page (again) goes; so does one onto itself.
  for (const entry of working.values()) {
    if ((live.has(entry.source) && (mayRemove.has(entry.source) || !entry.existing)) || entry.key === entry.source)
      removed.add(entry.source);
  }
  // Chains: follow redirects to their end; a cycle removes the redirect.
  for (const entry of working.values()) {
    if (removed.has(entry.source)) continue;
    const seen = new Set([entry.source]);
    let key = entry.key;
    for (;;) {
      const nextEntry = working.get(key);
      if (!nextEntry || removed.has(key) || live.has(key)) break;
      if (seen.has(key)) {
        key = null;
        break;
      }
      seen.add(key);
      key = nextEntry.key;
    }
    if (key === null) for (const source of seen) removed.add(source);
    else if (key === entry.source) removed.add(entry.source);
    else entry.final = key;
  }
  // A redirect settled before a later one found its target in a cycle: settle again.
  for (const entry of working.values()) {
    if (!removed.has(entry.source) && entry.final && removed.has(entry.final) && !live.has(entry.final))
      removed.add(entry.source);
  }

  const plan = { create: [], update: [], remove: [] };
  for (const entry of working.values()) {
    if (removed.has(entry.source)) {
      if (entry.existing) plan.remove.push({ documentId: entry.documentId, source: entry.source });
      continue;
    }
    const destination = siteFromKey(entry.final, opts);
    if (!entry.existing) plan.create.push({ source: entry.source, destination, permanent: true });
    else if (destinationKey(entry.destination, opts) !== entry.final)
      plan.update.push({ documentId: entry.documentId, source: entry.source, destination });
  }
  return plan;
}

/**
 * The redirects left pointing at nothing once pages are gone (a deleted page): those whose
 * destination is one of `goneKeys` (locale-prefixed paths the pages had) that no live page has
 * taken. A moved page's chain (A→C and B→C after two moves: planRedirects compacts chains) ends
 * at its last path, so every link of it goes. → [{ documentId, source, destination }]
 */
function redirectsInto({ goneKeys, redirects, livePaths, locales, defaultLocale }) {
  const live = new Set(livePaths);
  const gone = new Set(goneKeys.filter((key) => !live.has(key)));
  if (gone.size === 0) return [];
  return redirects
    .filter((r) => gone.has(destinationKey(r.destination, { locales, defaultLocale })))
    .map(({ documentId, source, destination }) => ({ documentId, source, destination }));
}

/** Every path a batch must revalidate, in site form: old and new paths of the moves. */
function movedSitePaths(moves, defaultLocale) {
  const paths = new Set();
  for (const m of moves) {
    paths.add(sitePath(m.oldPath, m.locale, defaultLocale));
    paths.add(sitePath(m.newPath, m.locale, defaultLocale));
  }
  return [...paths];
}

module.exports = { diffPaths, planRedirects, redirectsInto, destinationKey, siteFromKey, movedSitePaths };
