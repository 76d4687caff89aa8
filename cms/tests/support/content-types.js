"use strict";

const { readdirSync, readFileSync } = require("node:fs");
const path = require("node:path");

const API = path.resolve(__dirname, "../../src/api");

/** uid → schema of every content type in cms/src/api (what strapi.contentTypes holds for them). */
function repoContentTypes() {
  const types = {};
  for (const api of readdirSync(API))
    for (const name of readdirSync(path.join(API, api, "content-types")))
      types[`api::${api}.${name}`] = JSON.parse(
        readFileSync(path.join(API, api, "content-types", name, "schema.json"), "utf8"),
      );
  return types;
}

const COMPONENTS = path.resolve(__dirname, "../../src/components");

/** uid → schema of every component in cms/src/components (what strapi.components holds). */
function repoComponents() {
  const components = {};
  for (const category of readdirSync(COMPONENTS))
    for (const file of readdirSync(path.join(COMPONENTS, category)).filter((name) => name.endsWith(".json")))
      components[`${category}.${file.slice(0, -".json".length)}`] = JSON.parse(
        readFileSync(path.join(COMPONENTS, category, file), "utf8"),
      );
  return components;
}

module.exports = { repoContentTypes, repoComponents };
