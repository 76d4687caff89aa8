"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");

const {
  pageEditLayout,
  FULL_PATH_HINT,
  PARENT_HINT,
} = require("../../../../../../../packages/strapi-plugin-site-cache/server/services/page-layout/layout");

const stored = () => ({
  uid: "api::page.page",
  settings: { mainField: "title", pageSize: 10 },
  layouts: { edit: [[{ name: "title", size: 6 }]], list: ["id", "title"] },
  metadatas: {
    title: { edit: { label: "Headline", editable: true }, list: { label: "title" } },
    fullPath: { edit: { label: "fullPath", description: "", editable: true, visible: true }, list: {} },
    parent: { edit: { label: "parent", mainField: "title", editable: true, visible: true }, list: {} },
  },
});

test("fullPath becomes read-only with its hint, the parent picker shows paths; nothing else changes", () => {
  const before = stored();
  const next = pageEditLayout(before);
  assert.deepEqual(next.metadatas.fullPath.edit, {
    label: "fullPath",
    description: FULL_PATH_HINT,
    editable: false,
    visible: true,
  });
  assert.deepEqual(next.metadatas.parent.edit, {
    label: "parent",
    mainField: "fullPath",
    description: PARENT_HINT,
    editable: true,
    visible: true,
  });
  // An admin's own choices stay.
  assert.deepEqual(next.metadatas.title, before.metadatas.title);
  assert.deepEqual(next.settings, before.settings);
  assert.deepEqual(next.layouts, before.layouts);
  // The stored value is not changed in place.
  assert.deepEqual(before, stored());
});

test("a layout that already says so is not written again; one not synced yet is left alone", () => {
  assert.equal(pageEditLayout(pageEditLayout(stored())), null);
  assert.equal(pageEditLayout({ metadatas: {} }), null);
  assert.equal(pageEditLayout(undefined), null);
});
