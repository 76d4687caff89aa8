"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");

const {
  entryPath,
  pathOf,
  readDeclarations,
  tokenPermissions,
} = require("../../../../../../../packages/strapi-plugin-site-cache/server/services/revalidation/declarations");
const { repoContentTypes } = require("../../../../../support/content-types");

test("the repository's declarations: the eight types the site reads, with their paths and order", () => {
  const declared = readDeclarations(repoContentTypes());
  // Among them: a type a developer adds (docs/add-a-content-type.md) joins the list without a change here.
  for (const uid of [
    "api::article.article",
    "api::author.author",
    "api::category.category",
    "api::error-page.error-page",
    "api::footer.footer",
    "api::navbar.navbar",
    "api::page.page",
    "api::redirect.redirect",
  ])
    assert.ok(declared.has(uid), `${uid} is declared`);
  const summary = Object.fromEntries(
    [...declared.values()].map((d) => [
      d.uid,
      { single: d.single, path: d.path, order: d.order?.map((o) => `${o.field}:${o.direction}`) ?? null },
    ]),
  );
  assert.deepEqual(summary["api::page.page"], { single: false, path: "{fullPath}", order: null });
  assert.deepEqual(summary["api::redirect.redirect"], { single: false, path: "{source}", order: null });
  for (const single of ["api::navbar.navbar", "api::footer.footer", "api::error-page.error-page"])
    assert.deepEqual(summary[single], { single: true, path: null, order: null });
  assert.deepEqual(summary["api::article.article"], {
    single: false,
    path: "/blog/{slug}",
    order: ["publishDate:desc", "slug:asc"],
  });
  assert.deepEqual(summary["api::category.category"], { single: false, path: "/blog/category/{slug}", order: null });
  assert.deepEqual(summary["api::author.author"], { single: false, path: null, order: null });
  // The admin's Preview (src/preview/): every type with a path but redirects ("preview": false).
  const previewed = [...declared.values()].filter((d) => d.preview).map((d) => d.uid);
  for (const uid of ["api::article.article", "api::category.category", "api::page.page"])
    assert.ok(previewed.includes(uid), `${uid} has a Preview button`);
  for (const uid of ["api::redirect.redirect", "api::author.author", "api::navbar.navbar"])
    assert.ok(!previewed.includes(uid), `${uid} has none from its declaration`);
});

test("relations: the attributes that hold a link to a declared type; reverse: who links to a type", () => {
  const declared = readDeclarations(repoContentTypes());
  const article = declared.get("api::article.article");
  assert.deepEqual(article.relations, [
    { attribute: "category", target: "api::category.category" },
    { attribute: "author", target: "api::author.author" },
  ]);
  // category.articles and author.articles are the other side (mappedBy): not the category's relations
  assert.deepEqual(declared.get("api::category.category").relations, []);
  assert.deepEqual(declared.get("api::author.author").reverse, [{ uid: "api::article.article", attribute: "author" }]);
  assert.deepEqual(declared.get("api::category.category").reverse, [
    { uid: "api::article.article", attribute: "category" },
  ]);
  assert.deepEqual(article.reverse, []);
  // inverses: the other sides of its relations (C7: a category listing filtered by its articles)
  assert.deepEqual(article.inverses, [
    { uid: "api::category.category", attribute: "articles" },
    { uid: "api::author.author", attribute: "articles" },
  ]);
  assert.deepEqual(article.fields.media, ["cover"]);
  assert.deepEqual(article.fields.linked, ["category", "author"]);
  assert.deepEqual(declared.get("api::page.page").relations, [{ attribute: "parent", target: "api::page.page" }]);
  // a relation to a type the site does not read (admin::user, say) is none of the site's business,
  // nor are the links Strapi adds between a document's locales (its document tag covers them)
  const other = readDeclarations({
    "api::x.x": {
      kind: "collectionType",
      pluginOptions: { "site-cache": {}, i18n: { localized: true } },
      attributes: {
        owner: { type: "relation", relation: "manyToOne", target: "admin::user" },
        localizations: { type: "relation", relation: "oneToMany", target: "api::x.x", unstable_virtual: true },
        next: { type: "relation", relation: "oneToOne", target: "api::x.x" },
      },
    },
  });
  assert.deepEqual(other.get("api::x.x").relations, [{ attribute: "next", target: "api::x.x" }]);
});

test("a type without the block is not declared (not revalidated, not readable by the token)", () => {
  const types = repoContentTypes();
  const declared = readDeclarations({
    ...types,
    "plugin::users-permissions.user": { kind: "collectionType", attributes: {} },
    "plugin::site-cache.revalidation-failure": { kind: "collectionType", pluginOptions: {}, attributes: {} },
  });
  assert.equal(declared.has("plugin::users-permissions.user"), false);
  assert.equal(declared.has("plugin::site-cache.revalidation-failure"), false);
  assert.equal(declared.get("toString"), undefined);
});

test("the read-only token's permissions follow from the declarations", () => {
  const permissions = tokenPermissions(readDeclarations(repoContentTypes()));
  // The repository's types (a type a developer declares joins them); nothing about users or other plugins.
  assert.ok(permissions.every((p) => p.startsWith("api::") || p === "plugin::i18n.locales.listLocales"));
  for (const permission of [
    "api::article.article.find",
    "api::article.article.findOne",
    "api::author.author.find",
    "api::author.author.findOne",
    "api::category.category.find",
    "api::category.category.findOne",
    "api::error-page.error-page.find",
    "api::footer.footer.find",
    "api::navbar.navbar.find",
    "api::page.page.find",
    "api::page.page.findOne",
    "api::redirect.redirect.find",
    "api::redirect.redirect.findOne",
    "plugin::i18n.locales.listLocales",
  ])
    assert.ok(permissions.includes(permission), permission);
  // a new declared collection type is readable by declaring it, a single type by find only
  const more = readDeclarations({
    "api::event.event": { kind: "collectionType", pluginOptions: { "site-cache": {} }, attributes: {} },
    "api::banner.banner": { kind: "singleType", pluginOptions: { "site-cache": {} }, attributes: {} },
  });
  assert.deepEqual(tokenPermissions(more), [
    "api::banner.banner.find",
    "api::event.event.find",
    "api::event.event.findOne",
    "plugin::i18n.locales.listLocales",
  ]);
});

test("a malformed block stops the start with a clear error", () => {
  const schema = (block, kind = "collectionType") => ({
    "api::x.x": {
      kind,
      pluginOptions: { "site-cache": block },
      attributes: { slug: { type: "string" }, publishDate: { type: "datetime" } },
    },
  });
  const fails = (block, message, kind) => assert.throws(() => readDeclarations(schema(block, kind)), message);
  fails(null, /api::x\.x.*must be an object/);
  fails([], /must be an object/);
  fails({ paths: "/x/{slug}" }, /unknown key "paths"/);
  fails({ path: "" }, /path must be a non-empty string/);
  fails({ path: "/x" }, /names no attribute/);
  fails({ path: "/x/{slugg}" }, /slugg, which is not an attribute/);
  fails({ order: "slug:asc" }, /order must be a non-empty array/);
  fails({ order: ["slug"] }, /not 'attribute:asc'/);
  fails({ order: ["title:asc"] }, /title, which is not an attribute/);
  fails({ path: "/x/{slug}" }, /single type has no path/, "singleType");
  fails({ preview: false }, /single type has no path, order or preview/, "singleType");
  fails({ path: "/x/{slug}", preview: "no" }, /preview must be true or false/);
  fails({ preview: true }, /preview needs a path/);
  assert.doesNotThrow(() => readDeclarations(schema({ path: "/x/{slug}", order: ["publishDate:desc", "slug:asc"] })));
});

test("schedule: true needs drafts and the datetime attributes publishAt and unpublishAt; page and article have it", () => {
  const schema = (block, { kind = "collectionType", draftAndPublish = true, attributes } = {}) => ({
    "api::x.x": {
      kind,
      options: { draftAndPublish },
      pluginOptions: { "site-cache": block },
      attributes: attributes ?? { publishAt: { type: "datetime" }, unpublishAt: { type: "datetime" } },
    },
  });
  const fails = (block, message, options) => assert.throws(() => readDeclarations(schema(block, options)), message);
  fails({ schedule: "yes" }, /schedule must be true or false/);
  fails({ schedule: true }, /schedule needs draftAndPublish/, { draftAndPublish: false });
  fails({ schedule: true }, /single type cannot be scheduled/, { kind: "singleType" });
  fails({ schedule: true }, /needs a datetime attribute unpublishAt/, {
    attributes: { publishAt: { type: "datetime" } },
  });
  fails({ schedule: true }, /needs a datetime attribute publishAt/, {
    attributes: { publishAt: { type: "date" }, unpublishAt: { type: "datetime" } },
  });
  assert.equal(readDeclarations(schema({ schedule: true })).get("api::x.x").schedule, true);
  assert.equal(readDeclarations(schema({})).get("api::x.x").schedule, false);
  const scheduled = [...readDeclarations(repoContentTypes()).values()].filter((d) => d.schedule).map((d) => d.uid);
  assert.deepEqual(scheduled.sort(), ["api::article.article", "api::page.page"]);
});

test("entryPath: the template filled from the row, no locale prefix (the admin's Preview gives the locale apart)", () => {
  const declared = readDeclarations(repoContentTypes());
  assert.equal(entryPath(declared.get("api::article.article"), { slug: "hallo", locale: "de" }), "/blog/hallo");
  assert.equal(entryPath(declared.get("api::page.page"), { fullPath: "/firma", locale: "de" }), "/firma");
  assert.equal(entryPath(declared.get("api::article.article"), { slug: "", locale: "en" }), null);
  assert.equal(entryPath(declared.get("api::article.article"), null), null);
  assert.equal(entryPath(declared.get("api::author.author"), { name: "Ada" }), null);
});

test("pathOf: the template filled from the row; localized types get the locale prefix", () => {
  const declared = readDeclarations(repoContentTypes());
  const article = declared.get("api::article.article");
  assert.equal(pathOf(article, { slug: "hello", locale: "en" }, "en"), "/blog/hello");
  assert.equal(pathOf(article, { slug: "hallo", locale: "de" }, "en"), "/de/blog/hallo");
  assert.equal(pathOf(article, { slug: null, locale: "en" }, "en"), null);
  const page = declared.get("api::page.page");
  assert.equal(pathOf(page, { fullPath: "/", locale: "de" }, "en"), "/de");
  assert.equal(pathOf(page, { fullPath: "/company/careers", locale: "en" }, "en"), "/company/careers");
  // redirect sources are already locale-prefixed, and the type is not localized: as is
  const redirect = declared.get("api::redirect.redirect");
  assert.equal(pathOf(redirect, { source: "/en/old", locale: null }, "en"), "/en/old");
  assert.equal(pathOf(declared.get("api::author.author"), { name: "Ada" }, "en"), null);
  assert.equal(
    pathOf(declared.get("api::category.category"), { slug: "news", locale: "de" }, "en"),
    "/de/blog/category/news",
  );
});
