"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");

const { allowedOrigins, createPreviewHandler, previewSettings } = require("../../src/preview/index");

const ENV = {
  CLIENT_URL: "https://www.example.com/",
  CMS_PREVIEW_SECRET: "preview-secret-0123456789",
  NODE_ENV: "production",
};

/** strapi.documents(uid).findOne over a list of { documentId, locale, status, fullPath }. */
function fakeStrapi(entries) {
  const calls = [];
  return {
    calls,
    documents: (uid) => ({
      findOne: async (query) => {
        calls.push({ uid, ...query });
        const entry = entries.find(
          (e) => e.documentId === query.documentId && e.locale === (query.locale ?? "en") && e.status === query.status,
        );
        return entry ? { fullPath: entry.fullPath } : null;
      },
    }),
  };
}

const parse = (url) => {
  const parsed = new URL(url);
  return { base: `${parsed.origin}${parsed.pathname}`, ...Object.fromEntries(parsed.searchParams) };
};

test("a page: the site's /api/preview with its fullPath, locale and status", async () => {
  const strapi = fakeStrapi([
    { documentId: "d1", locale: "de", status: "draft", fullPath: "/unternehmen" },
    { documentId: "d1", locale: "de", status: "published", fullPath: "/firma" },
  ]);
  const handler = createPreviewHandler(() => strapi, ENV);
  assert.deepEqual(parse(await handler("api::page.page", { documentId: "d1", locale: "de", status: "draft" })), {
    base: "https://www.example.com/api/preview",
    secret: "preview-secret-0123456789",
    path: "/unternehmen",
    status: "draft",
    locale: "de",
  });
  const published = parse(await handler("api::page.page", { documentId: "d1", locale: "de", status: "published" }));
  assert.equal(published.path, "/firma");
  assert.equal(published.status, "published");
  assert.deepEqual(strapi.calls[0].fields, ["fullPath"]);
});

test("a page never published: its published tab shows the draft's path", async () => {
  const strapi = fakeStrapi([{ documentId: "d2", locale: "en", status: "draft", fullPath: "/new" }]);
  const url = await createPreviewHandler(() => strapi, ENV)("api::page.page", {
    documentId: "d2",
    locale: "en",
    status: "published",
  });
  assert.equal(parse(url).path, "/new");
});

test("navbar and footer: the locale's home page; redirects and unknown documents: no preview", async () => {
  const handler = createPreviewHandler(() => fakeStrapi([]), ENV);
  const navbar = parse(await handler("api::navbar.navbar", { documentId: "n", locale: "de", status: "published" }));
  assert.equal(navbar.path, "/");
  assert.equal(navbar.locale, "de");
  assert.equal(await handler("api::redirect.redirect", { documentId: "r", locale: null, status: "draft" }), null);
  assert.equal(await handler("api::page.page", { documentId: "gone", locale: "en", status: "draft" }), null);
});

test("production without CMS_PREVIEW_SECRET: preview is off; development has a default", async () => {
  const off = { ...ENV, CMS_PREVIEW_SECRET: "" };
  assert.equal(previewSettings(off), null);
  assert.deepEqual(allowedOrigins(off), []);
  assert.equal(await createPreviewHandler(() => fakeStrapi([]), off)("api::navbar.navbar", { locale: "en" }), null);
  assert.equal(previewSettings({ NODE_ENV: "development" }).secret, "development-only-preview-secret");
  assert.deepEqual(allowedOrigins(ENV), ["https://www.example.com"]);
});
