"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");

const { addSectionComponentsToPages, sectionComponents } = require("../../src/sections/page-sections");

// The function with a Strapi stand-in; through the real Strapi (a content type's section added to a
// page with no line in the page's schema): tests/integration/add-a-content-type.test.ts.

const components = {
  "sections.hero": {},
  "sections.latest-jobs": {},
  "sections.faq": {},
  "shared.seo": {},
  "shared.link": {},
};

test("the schema's sections first, in its order, then every other `sections.*` component by name; no other category", () => {
  assert.deepEqual(sectionComponents(["sections.hero"], components), [
    "sections.hero",
    "sections.faq",
    "sections.latest-jobs",
  ]);
  // Already complete: unchanged, and a second run adds nothing.
  const all = ["sections.hero", "sections.faq", "sections.latest-jobs"];
  assert.deepEqual(sectionComponents(all, components), all);
});

test("addSectionComponentsToPages completes the page's dynamic zone in place; a page without one stops the start", () => {
  const page = { attributes: { sections: { type: "dynamiczone", components: ["sections.hero"] } } };
  const strapi = { components, contentType: (uid) => (uid === "api::page.page" ? page : undefined) };
  addSectionComponentsToPages(strapi);
  assert.deepEqual(page.attributes.sections.components, ["sections.hero", "sections.faq", "sections.latest-jobs"]);

  const noZone = { components, contentType: () => ({ attributes: { sections: { type: "json" } } }) };
  assert.throws(() => addSectionComponentsToPages(noZone), /has no dynamic zone "sections"/);
});
