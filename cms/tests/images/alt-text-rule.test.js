"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");

const { registerAltTextRule } = require("../../src/images/alt-text-rule");
const { missingAltText, placedAltText, PLACEMENTS } = require("../../src/images/alt-text-placements");

// The rule's own logic with a Strapi stand-in; through the real Strapi (the admin's publish, the
// rendered alt): tests/integration/cms-alt-text.test.ts.

const components = {
  "sections.hero": {
    info: { displayName: "Hero" },
    attributes: { image: { type: "media" }, imageAlt: { type: "string" }, imageDecorative: { type: "boolean" } },
  },
  "shared.seo": { attributes: { shareImage: { type: "media" }, shareImageAlt: { type: "string" } } },
};
const PAGE = {
  options: { draftAndPublish: true },
  pluginOptions: { i18n: { localized: true } },
  attributes: {
    body: { type: "blocks" },
    sections: { type: "dynamiczone", components: ["sections.hero"] },
    seo: { type: "component", component: "shared.seo" },
  },
};
const file = (alternativeText = null) => ({ name: "team.jpg", alternativeText });

test("placedAltText: the placement's text, else the file's; empty when decorative", () => {
  const hero = PLACEMENTS["sections.hero"];
  assert.equal(placedAltText({ image: file("Library"), imageAlt: " Placed " }, hero), "Placed");
  assert.equal(placedAltText({ image: file("Library"), imageAlt: "  " }, hero), "Library");
  assert.equal(placedAltText({ image: file("Library"), imageAlt: "Placed", imageDecorative: true }, hero), "");
});

test("missingAltText names each image by its path; decorative ones, filled ones and empty fields pass", () => {
  const strapi = { components };
  const page = {
    body: [{ type: "paragraph", children: [{ type: "image", image: file() }] }],
    sections: [
      { __component: "sections.hero", image: file(), imageDecorative: true },
      { __component: "sections.hero", image: file("Library") },
      { __component: "sections.hero", image: file() },
      { __component: "sections.hero", image: null },
    ],
    seo: { shareImage: file(), shareImageAlt: null },
  };
  assert.deepEqual(missingAltText(strapi, "api::page.page", PAGE, page), [
    "body › image (team.jpg): give the file alternative text in the Media Library, then insert the image again",
    'sections 3 (Hero) › image (team.jpg): write its "imageAlt", or switch on "imageDecorative" if it only decorates (or give the file alternative text in the Media Library)',
    'seo › shareImage (team.jpg): write its "shareImageAlt" (or give the file alternative text in the Media Library)',
  ]);
});

/** A Strapi stand-in: one page type whose drafts are `drafts`, recording the document calls. */
function standIn(drafts) {
  const calls = [];
  let middleware;
  const documents = (uid) => ({
    findMany: async (params) => (calls.push(["findMany", uid, params.locale]), drafts),
    create: async (params) => (calls.push(["create", params.status]), { documentId: "d1" }),
    update: async (params) => (calls.push(["update", params.status]), { documentId: params.documentId }),
    publish: async (params) => (
      calls.push(["publish", params.documentId, params.locale]),
      { entries: [{ published: true }] }
    ),
  });
  documents.use = (fn) => (middleware = fn);
  const strapi = {
    documents,
    components,
    getModel: (uid) => (uid === "api::page.page" ? PAGE : { options: {} }),
    plugin: () => ({ service: () => ({ getDefaultLocale: async () => "en" }) }),
  };
  registerAltTextRule(strapi);
  const run = (context) => middleware(context, async () => (calls.push(["next", context.action]), "next"));
  return { run, calls };
}

const described = { sections: [], seo: { shareImage: file("Described") } };
const bare = { sections: [], seo: { shareImage: file() } };

test("publish: refused before Strapi publishes when an image lacks text; let through when none does", async () => {
  const refused = standIn([bare]);
  await assert.rejects(
    refused.run({ uid: "api::page.page", action: "publish", params: { documentId: "d1", locale: "de" } }),
    {
      name: "ValidationError",
      message: /^Not published: an image needs alternative text\. seo › shareImage \(team\.jpg\)/,
    },
  );
  assert.deepEqual(refused.calls, [["findMany", "api::page.page", "de"]]);

  const bulk = standIn([described]);
  await bulk.run({ uid: "api::page.page", action: "publish", params: { documentId: "d1", locale: ["en", "de"] } });
  assert.deepEqual(bulk.calls, [
    ["findMany", "api::page.page", "en"],
    ["findMany", "api::page.page", "de"],
    ["next", "publish"],
  ]);

  const allowed = standIn([described]);
  assert.equal(await allowed.run({ uid: "api::page.page", action: "publish", params: { documentId: "d1" } }), "next");
  assert.deepEqual(allowed.calls, [
    ["findMany", "api::page.page", "en"],
    ["next", "publish"],
  ]);
});

test("create with status 'published': saved as a draft, then published through the rule (refused: the draft stays)", async () => {
  const allowed = standIn([described]);
  const result = await allowed.run({
    uid: "api::page.page",
    action: "create",
    params: { status: "published", locale: "en", data: {} },
  });
  assert.deepEqual(result, { published: true });
  assert.deepEqual(allowed.calls, [
    ["create", undefined],
    ["publish", "d1", "en"],
  ]);
});

test("types without draft & publish, drafts, and other actions are not looked at", async () => {
  const { run, calls } = standIn([bare]);
  assert.equal(await run({ uid: "api::navbar.navbar", action: "create", params: { status: "published" } }), "next");
  assert.equal(await run({ uid: "api::page.page", action: "update", params: { documentId: "d1" } }), "next");
  assert.equal(await run({ uid: "plugin::upload.file", action: "publish", params: {} }), "next");
  assert.deepEqual(
    calls.map(([name]) => name),
    ["next", "next", "next"],
  );
});
