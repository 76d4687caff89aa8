"use strict";

/**
 * A page's sections are every component of the `sections` category (src/components/sections/):
 * a new section, the site's own or one a content type brings (a "latest jobs" list), is its
 * component's file and nothing in the page's schema (docs/add-a-content-type.md, decision 0048).
 *
 * Run in the application's register() (src/index.js): Strapi builds its database models, syncs the
 * schema and sets up the Content Manager from the content types after every register(), so the
 * page's `sections` dynamic zone read then already has them; on the first start after a section is
 * added, the sync creates its table. The schema's own list comes first, in its order (the order an
 * editor's "Add a component" shows); the others follow by name. A component of another category is
 * never added (`shared.seo` is a part of a page, not a section).
 */

const PAGE = "api::page.page";
const ZONE = "sections";
const CATEGORY = "sections";

/** The page's dynamic zone's components, with every `sections.*` component it did not list. */
function sectionComponents(listed, components) {
  const declared = Object.keys(components)
    .filter((uid) => uid.startsWith(`${CATEGORY}.`) && !listed.includes(uid))
    .sort();
  return [...listed, ...declared];
}

function addSectionComponentsToPages(strapi) {
  const zone = strapi.contentType(PAGE)?.attributes?.[ZONE];
  if (zone?.type !== "dynamiczone") {
    throw new Error(
      `${PAGE} has no dynamic zone "${ZONE}": the page's sections cannot be added (src/sections/page-sections.js)`,
    );
  }
  zone.components = sectionComponents(zone.components, strapi.components);
}

module.exports = { addSectionComponentsToPages, sectionComponents };
