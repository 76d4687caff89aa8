"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");

const {
  readDeclarations,
} = require("../../../../../../../packages/strapi-plugin-site-cache/server/services/revalidation/declarations");
const {
  readReferenceLinks,
} = require("../../../../../../../packages/strapi-plugin-site-cache/server/services/revalidation/reference-links");
const { repoComponents, repoContentTypes } = require("../../../../../support/content-types");

// Links by reference (decision 0041): which component relations count as links, and the way up from
// each component to the documents that hold it, read from the repository's own schemas.

const types = repoContentTypes();
const components = repoComponents();
const index = readReferenceLinks(components, types, new Set(readDeclarations(types).keys()));

test("a link's and a navbar entry's page and article are references; a section's own relation is one too", () => {
  const fields = index.fields.map((f) => `${f.component}.${f.attribute} → ${f.target}`).sort();
  for (const expected of [
    "shared.link.article → api::article.article",
    "shared.link.page → api::page.page",
    "shared.nav-link.article → api::article.article",
    "shared.nav-link.page → api::page.page",
  ])
    assert.ok(fields.includes(expected), `${expected} in ${fields.join(", ")}`);
});

test("the way up from a link reaches the page through its sections, the navbar and the footer", () => {
  const up = (component) => (index.embedders.get(component) ?? []).map((e) => `${e.owner}.${e.attribute}`).sort();
  assert.deepEqual(up("shared.link"), [
    "api::footer.footer.links",
    "elements.card.link",
    "sections.call-to-action.links",
    "sections.hero.links",
    "sections.media-with-text.link",
    "shared.nav-link.children",
  ]);
  assert.deepEqual(up("shared.nav-link"), ["api::navbar.navbar.links"]);
  assert.deepEqual(up("elements.card"), ["sections.card-grid.cards"]);
  const zone = index.embedders.get("sections.card-grid");
  assert.deepEqual(zone, [{ owner: "api::page.page", attribute: "sections", zone: true, isType: true }]);
});

test("a relation to a type the site does not read, or the other side of one, is no link", () => {
  const fake = {
    "x.a": {
      attributes: { user: { type: "relation", relation: "oneToOne", target: "plugin::users-permissions.user" } },
    },
    "x.b": {
      attributes: { page: { type: "relation", relation: "oneToOne", target: "api::page.page", mappedBy: "x" } },
    },
  };
  assert.deepEqual(readReferenceLinks(fake, {}, new Set(["api::page.page"])).fields, []);
});
