"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const { readdirSync, readFileSync } = require("node:fs");
const path = require("node:path");

// Each local plugin (src/plugins/<name>), and the plugin packages this CMS installs from ../packages,
// is one unit: it reaches the rest of the CMS through Strapi (services, config, documents, another
// plugin's registries), never by a require that climbs out of its folder; and the rest of cms/src
// reaches it only through strapi.plugin("<name>"), never by requiring its files. (cms/config may:
// it hands the plugins their configuration.)
const SRC = path.join(__dirname, "..", "..", "src");
const PLUGINS = path.join(SRC, "plugins");
const PACKAGES = path.join(__dirname, "..", "..", "..", "packages");
const SITE_CACHE = path.join(PACKAGES, "strapi-plugin-site-cache");

function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : sourceFiles(full);
    return /\.(c?js|jsx)$/.test(entry.name) ? [full] : [];
  });
}

const relativeImports = (file) =>
  [...readFileSync(file, "utf8").matchAll(/(?:require\(|from\s+)["'](\.[^"']*)["']/g)].map((match) => match[1]);

const plugins = readdirSync(PLUGINS, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

test("every local plugin is checked", () => {
  assert.deepEqual(plugins.sort(), ["accounts", "forms", "site-search"]);
});

const units = [
  ...plugins.map((name) => ({ name, plugin: path.join(PLUGINS, name) })),
  { name: "site-cache", plugin: SITE_CACHE },
];

for (const { name, plugin } of units) {
  test(`no require or import climbs out of the ${name} plugin's folder`, () => {
    const outside = sourceFiles(plugin).flatMap((file) =>
      relativeImports(file)
        .filter((spec) => path.relative(plugin, path.resolve(path.dirname(file), spec)).startsWith(".."))
        .map((spec) => `${path.relative(plugin, file)}: ${spec}`),
    );
    assert.deepEqual(outside, []);
  });

  test(`nothing else under cms/src requires the ${name} plugin's files`, () => {
    const inward = sourceFiles(SRC)
      .filter((file) => !file.startsWith(plugin + path.sep))
      .flatMap((file) =>
        relativeImports(file)
          .filter((spec) => path.resolve(path.dirname(file), spec).startsWith(plugin + path.sep))
          .map((spec) => `${path.relative(SRC, file)}: ${spec}`),
      );
    assert.deepEqual(inward, []);
  });
}

// Inside the site-cache plugin, the page hierarchy never imports the revalidation (it says which
// paths changed, the caller revalidates them).
test("the site-cache plugin's page hierarchy does not import its revalidation", () => {
  const services = path.join(SITE_CACHE, "server", "services");
  const revalidation = path.join(services, "revalidation");
  const imports = sourceFiles(path.join(services, "page-hierarchy")).flatMap((file) =>
    relativeImports(file).map((spec) => path.resolve(path.dirname(file), spec)),
  );
  assert.deepEqual(
    imports.filter((target) => target.startsWith(revalidation)),
    [],
  );
});
