"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");

const { createHmac, hkdfSync } = require("node:crypto");

const { allowedOrigins, createPreviewHandler, previewSettings, previewUrl } = require("../../src/preview/index");
const { PREVIEW_LINK_LIFETIME_MS } = require("../../src/preview/signed-link");
const siteTypesService = require("../../../packages/strapi-plugin-site-cache/server/services/site-types");
const { repoContentTypes } = require("../support/content-types");

/** The site-cache plugin's site-types service over the repository's schemas. */
const SITE_TYPES = siteTypesService({ strapi: { contentTypes: repoContentTypes() } });

const SETTINGS = previewSettings({
  clientUrl: "https://www.example.com",
  secret: "preview-secret-0123456789",
  production: true,
});

/**
 * strapi.documents(uid).findOne over a list of { uid?, documentId, locale, status?, <fields> } (no
 * status: a type without drafts, found whatever the query's status), and the site-cache plugin.
 */
function fakeStrapi(entries) {
  const calls = [];
  return {
    calls,
    plugin: (name) =>
      name === "site-cache" && {
        service: (service) => service === "site-types" && SITE_TYPES,
      },
    documents: (uid) => ({
      findOne: async (query) => {
        calls.push({ uid, ...query });
        const entry = entries.find(
          (e) =>
            (e.uid ?? "api::page.page") === uid &&
            e.documentId === query.documentId &&
            (e.locale ?? null) === (query.locale ?? (e.locale === undefined ? null : "en")) &&
            (e.status === undefined || e.status === query.status),
        );
        if (!entry) return null;
        return Object.fromEntries(query.fields.map((field) => [field, entry[field]]));
      },
    }),
  };
}

/** A preview URL's base and query, its expiry and signature checked for their form and set apart. */
const parse = (url) => {
  const parsed = new URL(url);
  const { expires, signature, ...query } = Object.fromEntries(parsed.searchParams);
  assert.match(expires, /^\d{13}$/);
  assert.match(signature, /^[\w-]{43}$/);
  assert.equal(url.includes(SETTINGS.secret), false, "the secret is in the URL");
  return { base: `${parsed.origin}${parsed.pathname}`, ...query };
};

test("a page: the site's /api/preview with its fullPath, locale and status", async () => {
  const strapi = fakeStrapi([
    { documentId: "d1", locale: "de", status: "draft", fullPath: "/unternehmen" },
    { documentId: "d1", locale: "de", status: "published", fullPath: "/firma" },
  ]);
  const handler = createPreviewHandler(() => strapi, SETTINGS);
  assert.deepEqual(parse(await handler("api::page.page", { documentId: "d1", locale: "de", status: "draft" })), {
    base: "https://www.example.com/api/preview",
    type: "api::page.page",
    document: "d1",
    path: "/unternehmen",
    status: "draft",
    locale: "de",
  });
  const published = parse(await handler("api::page.page", { documentId: "d1", locale: "de", status: "published" }));
  assert.equal(published.path, "/firma");
  assert.equal(published.status, "published");
  assert.deepEqual(strapi.calls[0].fields, ["fullPath"]);
});

test("a link is signed for its document, path, locale and status, and expires ten minutes after it was made", () => {
  const now = 1_800_000_000_000;
  const fields = { type: "api::page.page", documentId: "d1", path: "/company", locale: "de", status: "draft" };
  const url = new URL(previewUrl(SETTINGS, fields, now));
  assert.equal(url.searchParams.get("expires"), String(now + PREVIEW_LINK_LIFETIME_MS));
  assert.equal(PREVIEW_LINK_LIFETIME_MS, 10 * 60 * 1000);
  // HMAC-SHA256 keyed by HKDF-SHA256(secret, purpose preview-link/v1) over the site's signed-value
  // form; the same vector is checked by the site (app/lib/preview/preview-link.server.test.ts).
  const key = hkdfSync("sha256", SETTINGS.secret, "", "preview-link/v1", 32);
  const payload = Buffer.from(JSON.stringify(["api::page.page", "d1", "/company", "de", "draft"])).toString(
    "base64url",
  );
  const signed = `${payload}.${(now + PREVIEW_LINK_LIFETIME_MS).toString(36)}`;
  assert.equal(
    url.searchParams.get("signature"),
    createHmac("sha256", Buffer.from(key)).update(signed).digest("base64url"),
  );
  assert.equal(url.searchParams.get("signature"), "2n7sYY05Cjiii3Q0YLvdVNXmFr_cvVnipXZIfKGrLpE");
  const other = new URL(previewUrl(SETTINGS, { ...fields, documentId: "d2" }, now));
  assert.notEqual(other.searchParams.get("signature"), url.searchParams.get("signature"));
});

test("a page never published: its published tab shows the draft's path", async () => {
  const strapi = fakeStrapi([{ documentId: "d2", locale: "en", status: "draft", fullPath: "/new" }]);
  const url = await createPreviewHandler(() => strapi, SETTINGS)("api::page.page", {
    documentId: "d2",
    locale: "en",
    status: "published",
  });
  assert.equal(parse(url).path, "/new");
});

test("an article: its path from the declaration (/blog/{slug}), the draft's slug in the draft tab", async () => {
  const strapi = fakeStrapi([
    { uid: "api::article.article", documentId: "a1", locale: "de", status: "draft", slug: "neuer-titel" },
    { uid: "api::article.article", documentId: "a1", locale: "de", status: "published", slug: "alter-titel" },
  ]);
  const handler = createPreviewHandler(() => strapi, SETTINGS);
  const draft = parse(await handler("api::article.article", { documentId: "a1", locale: "de", status: "draft" }));
  assert.deepEqual(draft, {
    base: "https://www.example.com/api/preview",
    type: "api::article.article",
    document: "a1",
    path: "/blog/neuer-titel",
    status: "draft",
    locale: "de",
  });
  const published = parse(
    await handler("api::article.article", { documentId: "a1", locale: "de", status: "published" }),
  );
  assert.equal(published.path, "/blog/alter-titel");
  assert.deepEqual(strapi.calls[0].fields, ["slug"]);
});

test("a category (no drafts): its page /blog/category/{slug}, published whatever the tab", async () => {
  const strapi = fakeStrapi([{ uid: "api::category.category", documentId: "c1", locale: "en", slug: "news" }]);
  const url = parse(
    await createPreviewHandler(() => strapi, SETTINGS)("api::category.category", {
      documentId: "c1",
      locale: "en",
      status: "draft",
    }),
  );
  assert.equal(url.path, "/blog/category/news");
  assert.equal(url.status, "published");
  assert.equal(strapi.calls[0].status, undefined);
});

test("navbar and footer: the locale's home page; redirects, authors and unknown documents: no preview", async () => {
  const handler = createPreviewHandler(
    () => fakeStrapi([{ uid: "api::redirect.redirect", documentId: "r", status: "draft", source: "/en/old" }]),
    SETTINGS,
  );
  const navbar = parse(await handler("api::navbar.navbar", { documentId: "n", locale: "de", status: "published" }));
  assert.equal(navbar.path, "/");
  assert.equal(navbar.locale, "de");
  assert.equal(navbar.status, "published");
  // A redirect's path is no page of its own ("preview": false); an author has no path.
  assert.equal(await handler("api::redirect.redirect", { documentId: "r", locale: null, status: "draft" }), null);
  assert.equal(await handler("api::author.author", { documentId: "au", locale: null, status: "published" }), null);
  assert.equal(await handler("api::unknown.unknown", { documentId: "x", locale: "en", status: "draft" }), null);
  assert.equal(await handler("api::page.page", { documentId: "gone", locale: "en", status: "draft" }), null);
});

test("production without CMS_PREVIEW_SECRET: preview is off; development has a default", async () => {
  const off = previewSettings({ clientUrl: "https://www.example.com", secret: "", production: true });
  assert.equal(off, null);
  assert.deepEqual(allowedOrigins(off), []);
  assert.equal(await createPreviewHandler(() => fakeStrapi([]), off)("api::navbar.navbar", { locale: "en" }), null);
  const development = previewSettings({ clientUrl: "http://localhost:3000", secret: "", production: false });
  assert.equal(development.secret, "development-only-preview-secret");
  assert.deepEqual(allowedOrigins(SETTINGS), ["https://www.example.com"]);
});

test("config/admin.js: CLIENT_URL normalised as for the plugins (trailing slash gone), the secret read once", () => {
  const values = { CLIENT_URL: "https://www.example.com/base/", CMS_PREVIEW_SECRET: "s3cret", NODE_ENV: "production" };
  const env = (name, fallback) => values[name] ?? fallback;
  env.bool = (name, fallback) => fallback;
  env.int = (name, fallback) => fallback;
  const config = require("../../config/admin.js")({ env });
  assert.equal(config.preview.enabled, true);
  assert.deepEqual(config.preview.config.allowedOrigins, ["https://www.example.com"]);
  const off = require("../../config/admin.js")({
    env: Object.assign((name, fallback) => (name === "CMS_PREVIEW_SECRET" ? "" : env(name, fallback)), env),
  });
  assert.equal(off.preview.enabled, false);
});
