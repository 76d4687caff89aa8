"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");

const {
  checkHierarchy,
  hierarchySettings,
} = require("../../../../../../../packages/strapi-plugin-site-cache/server/services/page-hierarchy/settings");
const { pickers } = require("../../../../../../../packages/strapi-plugin-site-cache/server/middlewares/parent-picker");

const PAGES = {
  contentType: "api::page.page",
  slugField: "slug",
  parentField: "parent",
  pathField: "fullPath",
  redirectType: "api::redirect.redirect",
};

const contentTypes = {
  "api::page.page": {
    kind: "collectionType",
    pluginOptions: { i18n: { localized: true } },
    attributes: {
      slug: { type: "string" },
      fullPath: { type: "string" },
      parent: { type: "relation", relation: "manyToOne", target: "api::page.page", inversedBy: "children" },
      children: { type: "relation", relation: "oneToMany", target: "api::page.page", mappedBy: "parent" },
    },
  },
  "api::redirect.redirect": {
    kind: "collectionType",
    attributes: { source: { type: "string" }, destination: { type: "string" }, permanent: { type: "boolean" } },
  },
  "api::note.note": { kind: "collectionType", attributes: { slug: { type: "string" } } },
};

const strapiWith = (hierarchy) => ({ plugin: () => ({ config: () => hierarchy }), contentTypes });

test("no hierarchy configured: no settings, nothing to check", () => {
  assert.equal(hierarchySettings(strapiWith(null)), null);
  checkHierarchy(null, contentTypes);
});

test("the configured names, and the parent relation's other side as the children", () => {
  assert.deepEqual(hierarchySettings(strapiWith(PAGES)), {
    uid: "api::page.page",
    slugField: "slug",
    parentField: "parent",
    pathField: "fullPath",
    childrenField: "children",
    redirectType: "api::redirect.redirect",
  });
  checkHierarchy(PAGES, contentTypes);
  checkHierarchy({ ...PAGES, redirectType: null }, contentTypes);
  assert.equal(hierarchySettings(strapiWith({ ...PAGES, redirectType: undefined })).redirectType, null);
});

test("a hierarchy the schemas do not bear out stops the start, naming what is wrong", () => {
  for (const [config, message] of [
    [{ ...PAGES, contentType: "api::nope.nope" }, /api::nope.nope is not a content type/],
    [{ ...PAGES, contentType: "api::note.note" }, /must be localized/],
    [{ ...PAGES, slugField: "title" }, /slugField title must be a string or uid attribute/],
    [{ ...PAGES, pathField: "parent" }, /pathField parent must be a string or uid attribute/],
    [{ ...PAGES, parentField: "children" }, /parentField children must be a manyToOne relation/],
    [{ ...PAGES, redirectType: "api::note.note" }, /api::note.note needs a string attribute source/],
  ]) {
    assert.throws(() => checkHierarchy(config, contentTypes), message);
  }
});

test("the parent pickers filtered are the configured type's parent field and its other side", () => {
  const paths = (settings) => Object.keys(pickers(settings)).sort();
  assert.deepEqual(paths(hierarchySettings(strapiWith(PAGES))), [
    "/content-manager/relations/api::page.page/children",
    "/content-manager/relations/api::page.page/parent",
  ]);
  assert.deepEqual(paths({ uid: "api::doc.doc", parentField: "up", childrenField: null }), [
    "/content-manager/relations/api::doc.doc/up",
  ]);
});
