"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const { readdirSync, readFileSync } = require("node:fs");
const path = require("node:path");

// The plugin is one unit: it reaches the rest of the CMS through Strapi (services, config,
// documents), never by a require that climbs out of its folder; and the page hierarchy never
// imports the revalidation (it says which paths changed, the caller revalidates them).
const PLUGIN = path.join(__dirname, "..", "..", "..", "src", "plugins", "site-cache");

function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(c?js|jsx)$/.test(entry.name) ? [full] : [];
  });
}

const relativeImports = (file) =>
  [...readFileSync(file, "utf8").matchAll(/(?:require\(|from\s+)["'](\.[^"']*)["']/g)].map((match) => match[1]);

test("no require or import climbs out of the plugin's folder", () => {
  const outside = sourceFiles(PLUGIN).flatMap((file) =>
    relativeImports(file)
      .filter((spec) => path.relative(PLUGIN, path.resolve(path.dirname(file), spec)).startsWith(".."))
      .map((spec) => `${path.relative(PLUGIN, file)}: ${spec}`),
  );
  assert.deepEqual(outside, []);
});

test("the page hierarchy does not import the revalidation", () => {
  const hierarchy = path.join(PLUGIN, "server", "services", "page-hierarchy");
  const revalidation = path.join(PLUGIN, "server", "services", "revalidation");
  const imports = sourceFiles(hierarchy).flatMap((file) =>
    relativeImports(file).map((spec) => path.resolve(path.dirname(file), spec)),
  );
  assert.deepEqual(
    imports.filter((target) => target.startsWith(revalidation)),
    [],
  );
});
