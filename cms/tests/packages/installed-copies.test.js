"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const { existsSync, readdirSync, readFileSync, statSync } = require("node:fs");
const path = require("node:path");

// The packages this CMS takes from ../packages (file: dependencies) are installed as copies
// (cms/.npmrc: install-links), and npm does not renew a copy whose version did not change: the CMS
// (and every test that starts it) would run yesterday's plugin. scripts/install.sh removes them
// first; this test says so when a copy is out of date (docs/decisions/0047).
const CMS = path.join(__dirname, "..", "..");
const { dependencies } = require(path.join(CMS, "package.json"));
const local = Object.entries(dependencies).filter(([, spec]) => spec.startsWith("file:../packages/"));

function filesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && !path.relative(dir, entry.parentPath).split(path.sep).includes("node_modules"))
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));
}

/** The files npm packs from a package folder: its package.json `files` (folders whole), and package.json. */
function shippedFiles(source) {
  const { files = [] } = JSON.parse(readFileSync(path.join(source, "package.json"), "utf8"));
  return [
    "package.json",
    ...files.flatMap((entry) => {
      const full = path.join(source, entry);
      if (!existsSync(full)) return [];
      return statSync(full).isDirectory() ? filesUnder(full).map((file) => path.join(entry, file)) : [entry];
    }),
  ];
}

test("the CMS installs at least the site-cache plugin from ../packages", () => {
  assert.ok(local.some(([name]) => name === "@cms-site/strapi-plugin-site-cache"));
});

for (const [name, spec] of local) {
  test(`${name}: the installed copy is the package as it is in packages/ (else: scripts/install.sh)`, () => {
    const source = path.resolve(CMS, spec.slice("file:".length));
    const installed = path.join(CMS, "node_modules", name);
    // What runs, not what is read: an edited README does not make the CMS run yesterday's code.
    const stale = shippedFiles(source)
      .filter((file) => !file.endsWith(".md"))
      .filter((file) => {
        const copy = path.join(installed, file);
        return !existsSync(copy) || !readFileSync(copy).equals(readFileSync(path.join(source, file)));
      });
    assert.deepEqual(stale, [], `out of date in cms/node_modules/${name}: run scripts/install.sh`);
  });
}
