"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");

const {
  validateManualBody,
} = require("../../../../../../../packages/strapi-plugin-site-cache/server/controllers/validation/manual-revalidation");

const PAGES = { defaultUid: "api::page.page" };

test("paths with an optional locale; tags; uid defaults (the page hierarchy's type, when one is configured)", () => {
  assert.deepEqual(validateManualBody({ fullPaths: ["/careers"], locale: "de" }, PAGES).value, {
    fullPaths: ["/careers"],
    locale: "de",
    uid: "api::page.page",
  });
  assert.deepEqual(validateManualBody({ tags: ["cms:api::navbar.navbar"] }).value, {
    tags: ["cms:api::navbar.navbar"],
    uid: "api::navbar.navbar",
  });
  assert.deepEqual(validateManualBody({ tags: ["x"] }, PAGES).value.uid, "api::page.page");
  assert.deepEqual(validateManualBody({ fullPaths: ["/n"], uid: "api::note.note" }).value.uid, "api::note.note");
});

test("no uid, none in a tag and no page hierarchy: refused, naming uid", () => {
  assert.deepEqual(validateManualBody({ fullPaths: ["/notes/a"] }).errors, [
    { path: ["uid"], message: "name the content type these belong to (uid)" },
  ]);
  assert.equal(validateManualBody({ tags: ["x"] }).errors[0].path[0], "uid");
});

test("clear errors", () => {
  assert.match(validateManualBody(null).errors[0].message, /JSON object/);
  assert.match(validateManualBody({}).errors[0].message, /fullPaths .* or tags/);
  assert.match(validateManualBody({ fullPaths: ["/a"], tags: ["t"] }).errors[0].message, /not both/);
  const bad = validateManualBody({ fullPaths: ["careers", "/a b"], extra: 1 }).errors;
  assert.deepEqual(bad.map((e) => e.path.join(".")).sort(), ["", "fullPaths.0", "fullPaths.1"]);
  assert.equal(validateManualBody({ fullPaths: [] }).errors[0].path.join("."), "fullPaths");
  assert.equal(validateManualBody({ tags: ["a b"] }).errors[0].path.join("."), "tags.0");
  assert.equal(validateManualBody({ fullPaths: ["/a"], locale: "DE!" }).errors[0].path.join("."), "locale");
});
