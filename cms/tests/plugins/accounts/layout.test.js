"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const { readdirSync, readFileSync } = require("node:fs");
const path = require("node:path");

// The plugin is one unit: it reaches the rest of the CMS through Strapi (services, config, the
// users-permissions plugin's registries), never by a require that climbs out of its folder; and
// the rest of cms/src reaches it only through strapi.plugin("accounts"), never by requiring its files.
const SRC = path.join(__dirname, "..", "..", "..", "src");
const PLUGIN = path.join(SRC, "plugins", "accounts");

function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(c?js|jsx)$/.test(entry.name) ? [full] : [];
  });
}

const relativeImports = (file) =>
  [...readFileSync(file, "utf8").matchAll(/(?:require\(|from\s+)["'](\.[^"']*)["']/g)].map((match) => match[1]);

test("no require or import climbs out of the accounts plugin's folder", () => {
  const outside = sourceFiles(PLUGIN).flatMap((file) =>
    relativeImports(file)
      .filter((spec) => path.relative(PLUGIN, path.resolve(path.dirname(file), spec)).startsWith(".."))
      .map((spec) => `${path.relative(PLUGIN, file)}: ${spec}`),
  );
  assert.deepEqual(outside, []);
});

test("nothing else under cms/src requires the plugin's files", () => {
  const inward = sourceFiles(SRC)
    .filter((file) => !file.startsWith(PLUGIN + path.sep))
    .flatMap((file) =>
      relativeImports(file)
        .filter((spec) => path.resolve(path.dirname(file), spec).startsWith(PLUGIN))
        .map((spec) => `${path.relative(SRC, file)}: ${spec}`),
    );
  assert.deepEqual(inward, []);
});
