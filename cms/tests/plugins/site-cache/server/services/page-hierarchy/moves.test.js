"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");

const {
  diffPaths,
  planRedirects,
  destinationKey,
  siteFromKey,
  movedSitePaths,
} = require("../../../../../../../packages/strapi-plugin-site-cache/server/services/page-hierarchy/moves");

const L = { locales: ["en", "de"], defaultLocale: "en" };
const row = (documentId, locale, fullPath) => ({ documentId, locale, fullPath });

test("diff: moves, renames, deep trees and locales", () => {
  const before = [
    row("c", "en", "/company"),
    row("k", "en", "/company/careers"),
    row("e", "en", "/company/careers/engineering"),
    row("k", "de", "/company/careers"),
    row("j", "en", "/jobs"),
    row("gone", "en", "/gone"),
  ];
  const after = [
    row("c", "en", "/company"),
    row("k", "en", "/about/careers"),
    row("e", "en", "/about/careers/engineering"),
    row("k", "de", "/about/karriere"),
    row("j", "en", "/jobs"),
    row("new", "en", "/new"),
  ];
  assert.deepEqual(diffPaths(before, after), [
    { documentId: "k", locale: "de", oldPath: "/company/careers", newPath: "/about/karriere" },
    { documentId: "k", locale: "en", oldPath: "/company/careers", newPath: "/about/careers" },
    { documentId: "e", locale: "en", oldPath: "/company/careers/engineering", newPath: "/about/careers/engineering" },
  ]);
  assert.deepEqual(movedSitePaths(diffPaths(before, after), "en").sort(), [
    "/about/careers",
    "/about/careers/engineering",
    "/company/careers",
    "/company/careers/engineering",
    "/de/about/karriere",
    "/de/company/careers",
  ]);
});

test("destination forms", () => {
  assert.equal(destinationKey("/company/careers", L), "/en/company/careers");
  assert.equal(destinationKey("/de/company", L), "/de/company");
  assert.equal(destinationKey("/en/company", L), "/en/company");
  assert.equal(destinationKey("/", L), "/en");
  assert.equal(siteFromKey("/en/company", L), "/company");
  assert.equal(siteFromKey("/en", L), "/");
  assert.equal(siteFromKey("/de/company", L), "/de/company");
  assert.equal(siteFromKey("/de", L), "/de");
});

test("a move creates locale-prefixed sources with site-form destinations", () => {
  const moves = [
    { documentId: "k", locale: "en", oldPath: "/company/careers", newPath: "/about/careers" },
    { documentId: "k", locale: "de", oldPath: "/company/careers", newPath: "/about/careers" },
  ];
  const plan = planRedirects({ moves, redirects: [], livePaths: ["/en/about/careers", "/de/about/careers"], ...L });
  assert.deepEqual(plan.create, [
    { source: "/en/company/careers", destination: "/about/careers", permanent: true },
    { source: "/de/company/careers", destination: "/de/about/careers", permanent: true },
  ]);
  assert.deepEqual(plan.update, []);
  assert.deepEqual(plan.remove, []);
});

test("no chains: A→B exists and B moves to C → A→C", () => {
  const moves = [{ documentId: "k", locale: "en", oldPath: "/company/careers", newPath: "/about/careers" }];
  const redirects = [
    { documentId: "r1", source: "/en/old-careers", destination: "/company/careers" },
    { documentId: "r2", source: "/en/jobs-board", destination: "/jobs" },
    { documentId: "r3", source: "/en/prefixed", destination: "/en/company/careers" },
  ];
  const plan = planRedirects({ moves, redirects, livePaths: ["/en/about/careers", "/en/jobs"], ...L });
  assert.deepEqual(plan.create, [{ source: "/en/company/careers", destination: "/about/careers", permanent: true }]);
  assert.deepEqual(plan.update, [
    { documentId: "r1", source: "/en/old-careers", destination: "/about/careers" },
    { documentId: "r3", source: "/en/prefixed", destination: "/about/careers" },
  ]);
  assert.deepEqual(plan.remove, []);
});

test("chains through an existing redirect are compacted too (X→A, A→B)", () => {
  const redirects = [
    { documentId: "x", source: "/en/x", destination: "/a" },
    { documentId: "a", source: "/en/a", destination: "/b" },
  ];
  const plan = planRedirects({ moves: [], redirects, livePaths: ["/en/b"], ...L });
  assert.deepEqual(plan.update, [{ documentId: "x", source: "/en/x", destination: "/b" }]);
});

test("no loops: moving back removes the redirect whose source is live again", () => {
  // careers moved /company/careers → /about/careers earlier, now back.
  const moves = [{ documentId: "k", locale: "en", oldPath: "/about/careers", newPath: "/company/careers" }];
  const redirects = [
    { documentId: "r1", source: "/en/company/careers", destination: "/about/careers" },
    { documentId: "r2", source: "/en/old-careers", destination: "/about/careers" },
  ];
  const plan = planRedirects({
    moves,
    redirects,
    livePaths: ["/en/company/careers"],
    touched: ["/en/company/careers"],
    ...L,
  });
  assert.deepEqual(plan.remove, [{ documentId: "r1", source: "/en/company/careers" }]);
  assert.deepEqual(plan.create, [{ source: "/en/about/careers", destination: "/company/careers", permanent: true }]);
  assert.deepEqual(plan.update, [{ documentId: "r2", source: "/en/old-careers", destination: "/company/careers" }]);
});

test("never creates a redirect whose source is a live page; drops cycles and self-redirects", () => {
  // two pages swap paths: both old paths are live again → no redirect at all.
  const moves = [
    { documentId: "a", locale: "en", oldPath: "/a", newPath: "/b" },
    { documentId: "b", locale: "en", oldPath: "/b", newPath: "/a" },
  ];
  const plan = planRedirects({ moves, redirects: [], livePaths: ["/en/a", "/en/b"], ...L });
  assert.deepEqual(plan, { create: [], update: [], remove: [] });

  const cyclic = planRedirects({
    moves: [],
    redirects: [
      { documentId: "1", source: "/en/p", destination: "/q" },
      { documentId: "2", source: "/en/q", destination: "/p" },
      { documentId: "3", source: "/en/s", destination: "/en/s" },
    ],
    livePaths: [],
    ...L,
  });
  assert.deepEqual(cyclic.remove.map((r) => r.documentId).sort(), ["1", "2", "3"]);
});

test("a live-page redirect not touched by the batch is left alone", () => {
  const plan = planRedirects({
    moves: [],
    redirects: [{ documentId: "r", source: "/en/jobs", destination: "/x" }],
    livePaths: ["/en/jobs"],
    touched: [],
    ...L,
  });
  assert.deepEqual(plan, { create: [], update: [], remove: [] });
});

test("deep tree moved under another locale keeps locales apart", () => {
  const moves = [
    { documentId: "p", locale: "de", oldPath: "/a", newPath: "/x/a" },
    { documentId: "c", locale: "de", oldPath: "/a/b", newPath: "/x/a/b" },
    { documentId: "g", locale: "de", oldPath: "/a/b/c", newPath: "/x/a/b/c" },
  ];
  const plan = planRedirects({
    moves,
    redirects: [{ documentId: "en", source: "/en/a", destination: "/elsewhere" }],
    livePaths: ["/de/x/a", "/de/x/a/b", "/de/x/a/b/c", "/en/a"],
    ...L,
  });
  assert.deepEqual(
    plan.create.map((r) => `${r.source}→${r.destination}`),
    ["/de/a→/de/x/a", "/de/a/b→/de/x/a/b", "/de/a/b/c→/de/x/a/b/c"],
  );
});

test("redirectsInto: a deleted page's address takes the redirects into it (its moves' chain, any other)", () => {
  const {
    redirectsInto,
  } = require("../../../../../../../packages/strapi-plugin-site-cache/server/services/page-hierarchy/moves");
  const redirects = [
    { documentId: "r1", source: "/en/first", destination: "/third" },
    { documentId: "r2", source: "/en/second", destination: "/third" },
    { documentId: "r3", source: "/en/promo", destination: "/en/third" },
    { documentId: "r4", source: "/de/erste", destination: "/de/third" },
    { documentId: "r5", source: "/en/elsewhere", destination: "/jobs" },
  ];
  const gone = redirectsInto({ goneKeys: ["/en/third"], redirects, livePaths: ["/en/jobs"], ...L });
  assert.deepEqual(
    gone.map((r) => r.documentId),
    ["r1", "r2", "r3"],
  );
  // Another page lives at the address now: its redirects stay.
  assert.deepEqual(redirectsInto({ goneKeys: ["/en/third"], redirects, livePaths: ["/en/third"], ...L }), []);
  // The German locale of it went: only the German redirect.
  assert.deepEqual(
    redirectsInto({ goneKeys: ["/de/third"], redirects, livePaths: [], ...L }).map((r) => r.documentId),
    ["r4"],
  );
  assert.deepEqual(redirectsInto({ goneKeys: [], redirects, livePaths: [], ...L }), []);
});
