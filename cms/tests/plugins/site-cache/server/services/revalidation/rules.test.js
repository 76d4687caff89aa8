"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const { readdirSync, readFileSync } = require("node:fs");
const path = require("node:path");

const {
  readDeclarations,
  REVERSE_BOUND,
} = require("../../../../../../../packages/strapi-plugin-site-cache/server/services/revalidation/declarations");
const { MAX_TAGS } = require("@cms-site/cache-tags");

const {
  listChanges,
  writeInput,
} = require("../../../../../../../packages/strapi-plugin-site-cache/server/services/revalidation/payload");
const {
  mergeLinks,
  neighboursOf,
  reverseLinks,
} = require("../../../../../../../packages/strapi-plugin-site-cache/server/services/revalidation/document-middleware");

/**
 * The tag contract's rules C1–C6 (docs/cms-contract.md, "What a write sends"; C7 in field-tags.test.js), on the
 * repository's own declarations: what a write of one document sends, from its published rows
 * before and after the write (rows: `{ documentId, locale, <fields>, related: { attribute: [ids] } }`).
 */

const API = path.resolve(__dirname, "../../../../../../src/api");
const declared = (() => {
  const types = {};
  for (const api of readdirSync(API))
    for (const name of readdirSync(path.join(API, api, "content-types")))
      types[`api::${api}.${name}`] = JSON.parse(
        readFileSync(path.join(API, api, "content-types", name, "schema.json"), "utf8"),
      );
  return readDeclarations(types);
})();

const ARTICLE = declared.get("api::article.article");
const AUTHOR = declared.get("api::author.author");
const CATEGORY = declared.get("api::category.category");
const PAGE = declared.get("api::page.page");
const REDIRECT = declared.get("api::redirect.redirect");
const A = "cms:api::article.article";

const article = (fields = {}) => ({
  documentId: "art1",
  locale: "en",
  slug: "hello",
  publishDate: "2026-10-01T09:00:00.000Z",
  related: { category: ["cat1"], author: ["ada"] },
  ...fields,
});
/** What writeInput sends, tags sorted; the field tags of C7 left out (field-tags.test.js checks them). */
const sent = (declaration, input) => {
  const result = writeInput(declaration, { defaultLocale: "en", ...input });
  return result && { ...result, tags: [...(result.tags ?? [])].filter((tag) => !tag.includes(":field:")).sort() };
};

test("C1: a single type's write sends its tag, nothing else (the spec rows of navbar, footer, error page)", () => {
  for (const uid of ["api::navbar.navbar", "api::footer.footer", "api::error-page.error-page"])
    assert.deepEqual(writeInput(declared.get(uid), { documentId: "x", after: [{ documentId: "x", locale: "de" }] }), {
      uid,
      tags: [`cms:${uid}`],
    });
});

test("C2 and nothing else: an article republished with no relation or order change: its tag and path", () => {
  assert.deepEqual(sent(ARTICLE, { documentId: "art1", before: [article()], after: [article()] }), {
    uid: "api::article.article",
    fullPaths: ["/blog/hello"],
    tags: [`${A}:art1`],
  });
  // a changed slug: the old and the new path, still no list
  assert.deepEqual(sent(ARTICLE, { documentId: "art1", before: [article()], after: [article({ slug: "hi" })] }), {
    uid: "api::article.article",
    fullPaths: ["/blog/hello", "/blog/hi"],
    tags: [`${A}:art1`, `${A}:list:*`, `${A}:list:en`, ...filtered("en", "cat1", "ada")].sort(),
  });
});

/** The filtered list tags of an English article in category c and by author a. */
function filtered(locale, category, author) {
  return [
    ...(category ? [`${A}:list:${locale}:category=${category}`, `${A}:list:*:category=${category}`] : []),
    ...(author ? [`${A}:list:${locale}:author=${author}`, `${A}:list:*:author=${author}`] : []),
  ];
}

test("C2: page and redirect by path (spec rows), with their document tag; no bare page type tag", () => {
  const page = { documentId: "p1", locale: "de", fullPath: "/company", related: { parent: [] } };
  assert.deepEqual(sent(PAGE, { documentId: "p1", before: [page], after: [page] }), {
    uid: "api::page.page",
    fullPaths: ["/de/company"],
    tags: ["cms:api::page.page:p1"],
  });
  const redirect = { documentId: "r1", locale: null, source: "/en/old", related: {} };
  assert.deepEqual(
    sent(REDIRECT, { documentId: "r1", before: [redirect], after: [{ ...redirect, source: "/en/older" }] }),
    {
      uid: "api::redirect.redirect",
      fullPaths: ["/en/old", "/en/older"],
      // its source is its path field: a changed one is a change of the list (a lookup by source finds another)
      tags: ["cms:api::redirect.redirect:list:*", "cms:api::redirect.redirect:r1"],
    },
  );
});

test("C3: a first publish in a locale is a membership change: that locale's list and every locale's", () => {
  assert.deepEqual(sent(ARTICLE, { documentId: "art1", before: [], after: [article()] }), {
    uid: "api::article.article",
    fullPaths: ["/blog/hello"],
    tags: [`${A}:art1`, `${A}:list:*`, `${A}:list:en`, ...filtered("en", "cat1", "ada")].sort(),
  });
  const { membership } = listChanges(ARTICLE, [], [article({ locale: "de" })]);
  assert.deepEqual(membership, ["de"]);
});

test("C3: unpublish and delete (no published row after) are membership changes, with the related documents before", () => {
  assert.deepEqual(sent(ARTICLE, { documentId: "art1", before: [article()], after: [] }).tags, [
    ...[`${A}:art1`, `${A}:list:*`, `${A}:list:en`, ...filtered("en", "cat1", "ada")].sort(),
  ]);
  // a draft that was never published: nothing the site listed
  assert.deepEqual(sent(ARTICLE, { documentId: "art1", before: [], after: [] }).tags, [`${A}:art1`]);
});

test("C3: a republish that changes a relation sends the filtered lists of the old and the new related documents", () => {
  const moved = article({ related: { category: ["cat2"], author: ["ada"] } });
  assert.deepEqual(sent(ARTICLE, { documentId: "art1", before: [article()], after: [moved] }).tags, [
    `${A}:art1`,
    `${A}:list:*:category=cat1`,
    `${A}:list:*:category=cat2`,
    `${A}:list:en:category=cat1`,
    `${A}:list:en:category=cat2`,
  ]);
  // a relation emptied
  const none = article({ related: { category: [], author: ["ada"] } });
  assert.deepEqual(sent(ARTICLE, { documentId: "art1", before: [article()], after: [none] }).tags, [
    `${A}:art1`,
    `${A}:list:*:category=cat1`,
    `${A}:list:en:category=cat1`,
  ]);
});

test("C3: a change of a path field is a membership change (a list read by that field, a slug lookup, finds another row)", () => {
  const news = { documentId: "c1", locale: "en", slug: "news", related: {} };
  const { membership, tags } = listChanges(CATEGORY, [news], [{ ...news, slug: "updates" }]);
  assert.deepEqual(membership, ["en"]);
  assert.deepEqual(tags, ["cms:api::category.category:list:en", "cms:api::category.category:list:*"]);
  // the same slug: no list tag
  assert.deepEqual(listChanges(CATEGORY, [news], [{ ...news }]).tags, []);
});

test("C3: a change of a field named in `order` is a membership change (the list's order changed)", () => {
  const later = article({ publishDate: "2026-11-01T09:00:00.000Z" });
  const { membership, tags } = listChanges(ARTICLE, [article()], [later]);
  assert.deepEqual(membership, ["en"]);
  assert.ok(tags.includes(`${A}:list:en`) && tags.includes(`${A}:list:*`));
});

test("C3: a type that is not localized has one list, every locale's; non-D&P create/delete are membership changes", () => {
  const ada = { documentId: "ada", locale: null, related: {} };
  assert.deepEqual(sent(AUTHOR, { documentId: "ada", before: [], after: [ada] }).tags, [
    "cms:api::author.author:ada",
    "cms:api::author.author:list:*",
  ]);
  assert.deepEqual(sent(AUTHOR, { documentId: "ada", before: [ada], after: [ada] }).tags, [
    "cms:api::author.author:ada",
  ]);
  const news = { documentId: "c1", locale: "de", slug: "news", related: {} };
  assert.deepEqual(sent(CATEGORY, { documentId: "c1", before: [news], after: [] }), {
    uid: "api::category.category",
    fullPaths: ["/de/blog/category/news"],
    tags: ["cms:api::category.category:c1", "cms:api::category.category:list:*", "cms:api::category.category:list:de"],
  });
});

test("C4: the neighbours' previous/next tags, in their locale (the caller reads them where the place changed)", () => {
  const neighbours = [
    { documentId: "art0", locale: "en" },
    { documentId: "art2", locale: "en" },
    { documentId: "art1", locale: "en" },
  ];
  assert.deepEqual(
    sent(ARTICLE, { documentId: "art1", before: [], after: [article()], neighbours }).tags,
    [
      `${A}:art1`,
      `${A}:list:*`,
      `${A}:list:en`,
      `${A}:neighbours:en:art0`,
      `${A}:neighbours:en:art2`,
      ...filtered("en", "cat1", "ada"),
    ].sort(),
  );
});

test("C5: renaming an author sends that author's articles' tags, and not others'", () => {
  const ada = { documentId: "ada", locale: null, related: {} };
  assert.deepEqual(
    sent(AUTHOR, {
      documentId: "ada",
      before: [ada],
      after: [ada],
      reverse: [{ uid: "api::article.article", documentIds: ["art1", "art3"], overBound: false }],
    }),
    {
      uid: "api::author.author",
      tags: ["cms:api::article.article:art1", "cms:api::article.article:art3", "cms:api::author.author:ada"],
    },
  );
});

test("C6: over the bound, the linking type's tag instead of its documents'", () => {
  const ada = { documentId: "ada", locale: null, related: {} };
  assert.deepEqual(
    sent(AUTHOR, {
      documentId: "ada",
      before: [ada],
      after: [ada],
      reverse: [{ uid: "api::article.article", documentIds: [], overBound: true }],
    }).tags,
    ["cms:api::article.article", "cms:api::author.author:ada"],
  );
});

test("C6: exactly 1,000 linking documents stay within the site's 1,000 tags: the type's tag instead", () => {
  const ada = { documentId: "ada", locale: null, related: {} };
  const ids = (n, prefix) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);
  const input = writeInput(AUTHOR, {
    documentId: "ada",
    before: [ada],
    after: [ada],
    reverse: [{ uid: "api::article.article", documentIds: ids(REVERSE_BOUND, "a"), overBound: false }],
  });
  assert.ok(input.tags.length <= MAX_TAGS);
  assert.deepEqual(
    input.tags.filter((tag) => !tag.includes(":field:")),
    ["cms:api::author.author:ada", "cms:api::article.article"],
  );
  // two linking types: the smaller one is expanded, the one that no longer fits is not
  const both = writeInput(AUTHOR, {
    documentId: "ada",
    reverse: [
      { uid: "api::big.big", documentIds: ids(990, "b"), overBound: false },
      { uid: "api::small.small", documentIds: ids(20, "s"), overBound: false },
    ],
  });
  assert.ok(both.tags.length <= MAX_TAGS);
  assert.equal(both.tags.filter((t) => t.startsWith("cms:api::small.small:")).length, 20);
  assert.ok(both.tags.includes("cms:api::big.big"));
});

test("pages: the hierarchy batch's paths and moved pages' tags come along, in the one call", () => {
  const page = { documentId: "p1", locale: "en", fullPath: "/b/child", related: { parent: ["b"] } };
  const old = { ...page, fullPath: "/a/child", related: { parent: ["a"] } };
  const input = sent(PAGE, {
    documentId: "p1",
    before: [old],
    after: [page],
    extraPaths: ["/en/a/child", "/b/child/grand", "/a/child/grand"],
    extraTags: ["cms:api::page.page:p1", "cms:api::page.page:grand"],
  });
  assert.deepEqual(input.fullPaths, ["/a/child", "/b/child", "/en/a/child", "/b/child/grand", "/a/child/grand"]);
  // A move changes its fullPath (its path field): the page lists too (the sitemap lists fullPaths).
  assert.deepEqual(input.tags, [
    "cms:api::page.page:grand",
    "cms:api::page.page:list:*",
    "cms:api::page.page:list:*:parent=a",
    "cms:api::page.page:list:*:parent=b",
    "cms:api::page.page:list:en",
    "cms:api::page.page:list:en:parent=a",
    "cms:api::page.page:list:en:parent=b",
    "cms:api::page.page:p1",
  ]);
  assert.equal(input.tags.includes("cms:api::page.page"), false);
});

test("C6: a write whose tags would pass the site's 1,000 (a move of 1,200 pages) sends the type's tag instead", () => {
  const page = { documentId: "p1", locale: "en", fullPath: "/b", related: { parent: [] } };
  const moved = Array.from({ length: 1200 }, (_, i) => `cms:api::page.page:m${i}`);
  const input = sent(PAGE, {
    documentId: "p1",
    before: [{ ...page, fullPath: "/a" }],
    after: [page],
    extraTags: moved,
  });
  assert.deepEqual(input.tags, ["cms:api::page.page"]);
  assert.deepEqual(input.fullPaths, ["/a", "/b"]);
});

/** A stand-in of strapi.db.query(uid): findMany / findOne answered by `answer(uid, params)`, calls recorded. */
function fakeDb(answer) {
  const calls = [];
  const warnings = [];
  const strapi = {
    log: { warn: (line) => warnings.push(line), info() {}, error() {} },
    db: {
      query: (uid) => ({
        findMany: async (params) => {
          calls.push({ uid, method: "findMany", params });
          return answer(uid, params);
        },
        findOne: async (params) => {
          calls.push({ uid, method: "findOne", params });
          return answer(uid, params);
        },
      }),
    },
  };
  return { strapi, calls, warnings };
}

test("C5 reading: the published documents that link to the written one, each once, with their list locales", async () => {
  const { strapi, calls } = fakeDb(() => [
    { documentId: "art1", locale: "en" },
    { documentId: "art1", locale: "de" },
    { documentId: "art3", locale: "en" },
  ]);
  const links = await reverseLinks({ strapi, overBoundLogged: new Set() }, AUTHOR, "ada");
  assert.deepEqual(links, [
    {
      uid: "api::article.article",
      attribute: "author",
      documentIds: ["art1", "art3"],
      links: ["art1 en", "art1 de", "art3 en"],
      overBound: false,
    },
  ]);
  assert.deepEqual(calls[0].params.where, { author: { documentId: "ada" }, publishedAt: { $notNull: true } });
  assert.deepEqual(await reverseLinks({ strapi, overBoundLogged: new Set() }, ARTICLE, "art1"), []);
});

test("C6 reading: more than 1,000 linking documents → over the bound, reading stops, logged once", async () => {
  const total = 5000;
  const { strapi, calls, warnings } = fakeDb((uid, { limit, offset }) =>
    Array.from({ length: Math.max(0, Math.min(limit, total - offset)) }, (_, i) => ({
      documentId: `a${offset + i}`,
      locale: "en",
    })),
  );
  const seen = new Set();
  const links = await reverseLinks({ strapi, overBoundLogged: seen }, AUTHOR, "ada");
  assert.deepEqual(links, [
    { uid: "api::article.article", attribute: "author", documentIds: [], links: [], overBound: true },
  ]);
  const read = calls.reduce((sum, call) => sum + call.params.limit, 0);
  assert.ok(read <= REVERSE_BOUND + 500, `read ${read} rows`);
  await reverseLinks({ strapi, overBoundLogged: seen }, AUTHOR, "ada");
  assert.equal(warnings.length, 1);
  assert.match(warnings[0], /more than 1000 api::article\.article documents link to one api::author\.author/);
  // exactly the bound is not over it
  const exact = fakeDb((uid, { limit, offset }) =>
    Array.from({ length: Math.max(0, Math.min(limit, REVERSE_BOUND - offset)) }, (_, i) => ({
      documentId: `a${offset + i}`,
      locale: "en",
    })),
  );
  const [atBound] = await reverseLinks({ strapi: exact.strapi, overBoundLogged: new Set() }, AUTHOR, "ada");
  assert.equal(atBound.overBound, false);
  assert.equal(atBound.documentIds.length, REVERSE_BOUND);
});

test("mergeLinks: before ∪ after; over the bound when either was or the union is; the locales where links changed", () => {
  const uid = "api::article.article";
  const group = (documentIds, links, overBound = false) => ({
    uid,
    attribute: "category",
    documentIds,
    links,
    overBound,
  });
  assert.deepEqual(mergeLinks([group(["a", "b"], ["a en", "b en"])], [group(["a", "b"], ["a en", "b en"])]), [
    { uid, attribute: "category", documentIds: ["a", "b"], overBound: false, changedLocales: [], locales: ["en"] },
  ]);
  assert.deepEqual(mergeLinks([group(["a"], ["a en"])], [group(["a", "c"], ["a en", "c de"])]), [
    {
      uid,
      attribute: "category",
      documentIds: ["a", "c"],
      overBound: false,
      changedLocales: ["de"],
      locales: ["en", "de"],
    },
  ]);
  // a removal (nothing read after): every link is gone
  assert.deepEqual(mergeLinks([group(["a"], ["a en"])], []), [
    { uid, attribute: "category", documentIds: ["a"], overBound: false, changedLocales: ["en"], locales: ["en"] },
  ]);
  assert.deepEqual(mergeLinks([group([], [], true)], [group(["c"], ["c en"])]), [
    { uid, attribute: "category", documentIds: [], overBound: true, changedLocales: [], locales: [] },
  ]);
  const many = (from) => Array.from({ length: 600 }, (_, i) => `d${from + i}`);
  assert.equal(mergeLinks([group(many(0), [])], [group(many(600), [])])[0].overBound, true);
});

test("C5: a relation edited from the other side (an article added in the category's form): the category's filtered lists", () => {
  const news = { documentId: "c1", locale: "en", slug: "news", related: {} };
  const input = sent(CATEGORY, {
    documentId: "c1",
    before: [news],
    after: [news],
    reverse: [
      { uid: "api::article.article", attribute: "category", documentIds: ["art1", "art2"], changedLocales: ["en"] },
    ],
  });
  assert.deepEqual(input.tags, [
    `${A}:art1`,
    `${A}:art2`,
    `${A}:list:*:category=c1`,
    `${A}:list:en:category=c1`,
    "cms:api::category.category:c1",
  ]);
});

test("C4 reading: the documents just before and just after in the declared order, same locale, published", async () => {
  const { strapi, calls } = fakeDb((uid, params) =>
    params.orderBy[0].publishDate === "desc" ? { documentId: "older" } : { documentId: "newer" },
  );
  const row = article();
  assert.deepEqual(await neighboursOf(strapi, ARTICLE, row), [
    { documentId: "older", locale: "en" },
    { documentId: "newer", locale: "en" },
  ]);
  const [next, previous] = calls.map((call) => call.params);
  const base = { publishedAt: { $notNull: true }, documentId: { $ne: "art1" }, locale: "en" };
  // next in publishDate:desc, slug:asc: an earlier date, or the same date and a later slug
  assert.deepEqual(next.where, {
    ...base,
    $or: [{ publishDate: { $lt: row.publishDate } }, { publishDate: { $eq: row.publishDate }, slug: { $gt: "hello" } }],
  });
  assert.deepEqual(next.orderBy, [{ publishDate: "desc" }, { slug: "asc" }]);
  assert.deepEqual(previous.where.$or, [
    { publishDate: { $gt: row.publishDate } },
    { publishDate: { $eq: row.publishDate }, slug: { $lt: "hello" } },
  ]);
  assert.deepEqual(previous.orderBy, [{ publishDate: "asc" }, { slug: "desc" }]);
  // no place in the order without its fields; a type without order has no neighbours
  assert.deepEqual(await neighboursOf(strapi, ARTICLE, article({ publishDate: null })), []);
  assert.deepEqual(await neighboursOf(strapi, PAGE, { documentId: "p1", locale: "en" }), []);
});
