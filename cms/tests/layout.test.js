"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } = require("node:fs");
const { tmpdir } = require("node:os");
const path = require("node:path");

// Strapi requires every file of the folders it loads (an API's controllers/ and services/, for
// one), so a test file there runs inside the CMS process on every start. The rule that needs no
// list of those folders: no test file anywhere under src/; the tests of src/<path> live in
// tests/<path> (npm test runs tests/).
const SRC = path.join(__dirname, "..", "src");
const TEST_FILE = /\.(test|spec)\.[cm]?[jt]sx?$/;

function testFilesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : testFilesUnder(full);
    return TEST_FILE.test(entry.name) || full.includes(`${path.sep}__tests__${path.sep}`) ? [full] : [];
  });
}

test("no test file lives under cms/src (Strapi would load and run it); they go in cms/tests", () => {
  const misplaced = testFilesUnder(SRC).map((file) => path.relative(path.join(SRC, ".."), file));
  assert.deepEqual(misplaced, [], `move these to cms/tests/, mirroring their path under src/: ${misplaced.join(", ")}`);
});

test("the check finds a test file planted where Strapi loads code, and nothing else", (t) => {
  const root = mkdtempSync(path.join(tmpdir(), "cms-layout-"));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const plant = (file) => {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), "");
  };
  for (const file of ["api/x/services/x.js", "api/x/services/latest.js", "api/x/content-types/x/schema.json"])
    plant(file);
  assert.deepEqual(testFilesUnder(root), []);
  for (const file of ["api/x/services/x.test.js", "middlewares/y.spec.mjs", "plugins/z/server/__tests__/z.js"])
    plant(file);
  assert.deepEqual(
    testFilesUnder(root)
      .map((file) => path.relative(root, file))
      .sort(),
    ["api/x/services/x.test.js", "middlewares/y.spec.mjs", "plugins/z/server/__tests__/z.js"],
  );
});
