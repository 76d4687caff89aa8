"use strict";

// Run with `npm test` in cms/ (node:test, no dependencies).
const test = require("node:test");
const assert = require("node:assert/strict");

const {
  computeFullPath,
  normalisePath,
} = require("../../../../../../../packages/strapi-plugin-site-cache/server/services/page-hierarchy/full-path");

test("the home page: no parent, no slug", () => {
  assert.equal(computeFullPath(null, ""), "/");
  assert.equal(computeFullPath(undefined, null), "/");
  assert.equal(computeFullPath(null, "  "), "/");
});

test("top-level pages", () => {
  assert.equal(computeFullPath(null, "company"), "/company");
  assert.equal(computeFullPath(null, "/company/"), "/company");
});

test("nested pages", () => {
  assert.equal(computeFullPath("/company", "careers"), "/company/careers");
  assert.equal(computeFullPath("/company/careers", "engineering"), "/company/careers/engineering");
  assert.equal(computeFullPath("/", "jobs"), "/jobs");
});

test("slashes are normalised", () => {
  assert.equal(computeFullPath("/company/", "/careers/"), "/company/careers");
  assert.equal(computeFullPath("//company//", "careers//"), "/company/careers");
  assert.equal(computeFullPath("", "jobs"), "/jobs");
  assert.equal(normalisePath("//a//b/"), "/a/b");
  assert.equal(normalisePath(""), "/");
});

test("a page with a parent needs a slug", () => {
  assert.equal(computeFullPath("/company", ""), null);
  assert.equal(computeFullPath("/company", null), null);
  assert.equal(computeFullPath("/", "/"), null);
});
