"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");

const {
  ALLOWLIST,
  buildPayload,
  documentTagFor,
  inputFor,
  shouldRevalidate,
  sitePath,
  tagFor,
  targetFor,
  prefixedPath,
} = require("../../../../../../src/plugins/site-cache/server/services/revalidation/payload");

test("allowlist: page, redirect and article by path, navbar, footer, error page, category and author by tag, nothing else", () => {
  assert.deepEqual(Object.keys(ALLOWLIST).sort(), [
    "api::article.article",
    "api::author.author",
    "api::category.category",
    "api::error-page.error-page",
    "api::footer.footer",
    "api::navbar.navbar",
    "api::page.page",
    "api::redirect.redirect",
  ]);
  assert.equal(targetFor("api::page.page").field, "fullPath");
  assert.equal(targetFor("api::redirect.redirect").field, "source");
  assert.equal(targetFor("api::navbar.navbar").mode, "tag");
  assert.equal(targetFor("api::error-page.error-page").mode, "tag");
  assert.equal(targetFor("plugin::users-permissions.user"), null);
  assert.equal(targetFor("plugin::site-cache.revalidation-failure"), null);
  assert.equal(targetFor("toString"), null);
  assert.equal(tagFor("api::footer.footer"), "cms:api::footer.footer");
});

test("trigger policy, draftAndPublish true: publish, unpublish, delete and published updates", () => {
  const p = (action, params = {}) => shouldRevalidate({ action, params, draftAndPublish: true });
  assert.equal(p("publish"), true);
  assert.equal(p("unpublish"), true);
  assert.equal(p("delete"), true);
  assert.equal(p("update"), false);
  assert.equal(p("create"), false);
  assert.equal(p("discardDraft"), false);
  assert.equal(p("update", { status: "published" }), true);
  assert.equal(p("create", { status: "published" }), true);
  assert.equal(p("findMany"), false);
});

test("trigger policy, draftAndPublish false: every write", () => {
  const p = (action, params = {}) => shouldRevalidate({ action, params, draftAndPublish: false });
  assert.equal(p("create"), true);
  assert.equal(p("update"), true);
  assert.equal(p("delete"), true);
  assert.equal(p("findOne"), false);
  assert.equal(p("count"), false);
});

test("writes with updatedBy: null (hierarchy recalculation) are skipped", () => {
  assert.equal(
    shouldRevalidate({ action: "publish", params: { data: { updatedBy: null } }, draftAndPublish: true }),
    false,
  );
  assert.equal(
    shouldRevalidate({ action: "update", params: { data: { updatedBy: null } }, draftAndPublish: false }),
    false,
  );
  assert.equal(
    shouldRevalidate({ action: "update", params: { data: { updatedBy: 3 } }, draftAndPublish: false }),
    true,
  );
});

test("locale handling: default locale unprefixed, others prefixed", () => {
  assert.equal(sitePath("/careers", "en", "en"), "/careers");
  assert.equal(sitePath("/careers", "de", "en"), "/de/careers");
  assert.equal(sitePath("/", "de", "en"), "/de");
  assert.equal(sitePath("/", "en", "en"), "/");
  assert.equal(sitePath("/x", undefined, "en"), "/x");
  assert.equal(prefixedPath("/", "en"), "/en");
  assert.equal(prefixedPath("/company/careers", "en"), "/en/company/careers");
});

test("tagged types: page paths go with the page type tag (the sitemap); redirect paths do not", () => {
  assert.equal(ALLOWLIST["api::page.page"].tagged, true);
  assert.equal(ALLOWLIST["api::redirect.redirect"].tagged, undefined);
  assert.equal(documentTagFor("api::page.page", "abc"), "cms:api::page.page:abc");
  // the hierarchy batch and the manual route send paths only: the type tag comes with them
  assert.deepEqual(
    buildPayload({ uid: "api::page.page", fullPaths: ["/a", "/b"] }, { defaultLocale: "en" }).next.tags,
    ["cms:api::page.page"],
  );
  assert.equal(
    buildPayload({ uid: "api::redirect.redirect", fullPaths: ["/en/a"] }, { defaultLocale: "en" }).next.tags,
    undefined,
  );
  assert.equal(buildPayload({ uid: "api::page.page", fullPaths: [] }, { defaultLocale: "en" }), null);
});

test("payload: paths with locale, tags, uid; empty lists left out", () => {
  assert.deepEqual(
    buildPayload({ uid: "api::page.page", fullPaths: ["/careers"], locale: "de" }, { defaultLocale: "en" }),
    {
      uid: "api::page.page",
      next: { fullPaths: ["/de/careers"], tags: ["cms:api::page.page"] },
    },
  );
  assert.deepEqual(
    buildPayload(
      { uid: "api::page.page", fullPaths: ["/careers", "/careers"], locale: "en", tags: ["cms:api::page.page:doc1"] },
      { defaultLocale: "en" },
    ),
    {
      uid: "api::page.page",
      next: { fullPaths: ["/careers"], tags: ["cms:api::page.page", "cms:api::page.page:doc1"] },
    },
  );
  assert.deepEqual(
    buildPayload({ uid: "api::navbar.navbar", tags: ["cms:api::navbar.navbar"] }, { defaultLocale: "en" }),
    {
      uid: "api::navbar.navbar",
      next: { tags: ["cms:api::navbar.navbar"] },
    },
  );
  // redirect sources: already prefixed, sent as is (no locale)
  assert.deepEqual(
    buildPayload({ uid: "api::redirect.redirect", fullPaths: ["/en/old-careers"] }, { defaultLocale: "en" }).next,
    { fullPaths: ["/en/old-careers"] },
  );
  assert.equal(buildPayload({ uid: "api::page.page", fullPaths: [] }, { defaultLocale: "en" }), null);
  assert.throws(() => buildPayload({ fullPaths: ["/x"] }), TypeError);
});

test("inputFor: the document rows of a type → the service input", () => {
  assert.deepEqual(
    inputFor(
      "api::page.page",
      [
        { fullPath: "/careers", locale: "en" },
        { fullPath: "/careers", locale: "de" },
      ],
      { defaultLocale: "en" },
    ),
    {
      uid: "api::page.page",
      fullPaths: ["/careers", "/de/careers"],
    },
  );
  // the document's tag (its other locales' hreflang alternates), once per document
  assert.deepEqual(
    inputFor(
      "api::page.page",
      [
        { documentId: "doc1", fullPath: "/careers", locale: "en" },
        { documentId: "doc1", fullPath: "/careers", locale: "de" },
      ],
      { defaultLocale: "en" },
    ),
    { uid: "api::page.page", fullPaths: ["/careers", "/de/careers"], tags: ["cms:api::page.page:doc1"] },
  );
  assert.deepEqual(inputFor("api::redirect.redirect", [{ source: "/en/old" }], { defaultLocale: "en" }), {
    uid: "api::redirect.redirect",
    fullPaths: ["/en/old"],
  });
  assert.deepEqual(inputFor("api::footer.footer", [], { defaultLocale: "en" }), {
    uid: "api::footer.footer",
    tags: ["cms:api::footer.footer"],
  });
  assert.equal(inputFor("api::page.page", [], { defaultLocale: "en" }), null);
  // an article: /blog/<slug> per locale, its document's tag; the list tag comes with buildPayload
  assert.deepEqual(
    inputFor(
      "api::article.article",
      [
        { documentId: "art1", slug: "hello", locale: "en" },
        { documentId: "art1", slug: "hallo", locale: "de" },
      ],
      { defaultLocale: "en" },
    ),
    {
      uid: "api::article.article",
      fullPaths: ["/blog/hello", "/de/blog/hallo"],
      tags: ["cms:api::article.article:art1"],
    },
  );
  assert.deepEqual(
    buildPayload({ uid: "api::article.article", fullPaths: ["/blog/hello"], tags: ["cms:api::article.article:art1"] }),
    {
      uid: "api::article.article",
      next: { fullPaths: ["/blog/hello"], tags: ["cms:api::article.article", "cms:api::article.article:art1"] },
    },
  );
  assert.deepEqual(inputFor("api::category.category", [], { defaultLocale: "en" }), {
    uid: "api::category.category",
    tags: ["cms:api::category.category"],
  });
  assert.equal(inputFor("api::other.other", [{ fullPath: "/x" }]), null);
});
