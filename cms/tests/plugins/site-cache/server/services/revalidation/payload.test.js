"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");

const { documentTag, listTag, typeTag } = require("@cms-site/cache-tags");

const {
  buildPayload,
  shouldRevalidate,
  sitePath,
  prefixedPath,
} = require("../../../../../../../packages/strapi-plugin-site-cache/server/services/revalidation/payload");

test("the tags the plugin sends (@cms-site/cache-tags): the type, one document, a list (per locale or every locale), a list filtered by one relation", () => {
  assert.equal(typeTag("api::footer.footer"), "cms:api::footer.footer");
  assert.equal(documentTag("api::page.page", "abc"), "cms:api::page.page:abc");
  assert.equal(listTag("api::article.article", "en"), "cms:api::article.article:list:en");
  assert.equal(listTag("api::author.author", null), "cms:api::author.author:list:*");
  assert.equal(
    listTag("api::article.article", "*", { attribute: "category", documentId: "c1" }),
    "cms:api::article.article:list:*:category=c1",
  );
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

test("paths go without any type tag (the sitemap records the page list's tag, not cms:api::page.page)", () => {
  // the hierarchy batch and the manual route send paths only
  assert.equal(
    buildPayload({ uid: "api::page.page", fullPaths: ["/a", "/b"] }, { defaultLocale: "en" }).next.tags,
    undefined,
  );
  assert.equal(buildPayload({ uid: "api::page.page", fullPaths: [] }, { defaultLocale: "en" }), null);
});

test("payload: paths with locale, tags, uid; empty lists left out", () => {
  assert.deepEqual(
    buildPayload({ uid: "api::page.page", fullPaths: ["/careers"], locale: "de" }, { defaultLocale: "en" }),
    { uid: "api::page.page", next: { fullPaths: ["/de/careers"] } },
  );
  assert.deepEqual(
    buildPayload(
      { uid: "api::page.page", fullPaths: ["/careers", "/careers"], locale: "en", tags: ["cms:api::page.page:doc1"] },
      { defaultLocale: "en" },
    ),
    { uid: "api::page.page", next: { fullPaths: ["/careers"], tags: ["cms:api::page.page:doc1"] } },
  );
  assert.deepEqual(
    buildPayload({ uid: "api::navbar.navbar", tags: ["cms:api::navbar.navbar"] }, { defaultLocale: "en" }),
    { uid: "api::navbar.navbar", next: { tags: ["cms:api::navbar.navbar"] } },
  );
  // redirect sources: already prefixed, sent as is (no locale)
  assert.deepEqual(
    buildPayload({ uid: "api::redirect.redirect", fullPaths: ["/en/old-careers"] }, { defaultLocale: "en" }).next,
    { fullPaths: ["/en/old-careers"] },
  );
  assert.equal(buildPayload({ uid: "api::page.page", fullPaths: [] }, { defaultLocale: "en" }), null);
  assert.throws(() => buildPayload({ fullPaths: ["/x"] }), TypeError);
});
