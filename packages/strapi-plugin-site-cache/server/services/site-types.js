"use strict";

const { entryPath, readDeclarations, tokenPermissions } = require("./revalidation/declarations");
const { readReferenceLinks } = require("./revalidation/reference-links");

/**
 * `strapi.plugin("site-cache").service("site-types")`: the registry of the content types the site
 * reads, from the `site-cache` block of each schema (revalidation/declarations.js). Read once,
 * from `strapi.contentTypes`, at the plugin's bootstrap (a malformed block stops the start there).
 * - declarationOf(uid): the type's declaration, or null (not revalidated, not readable by the token);
 * - tokenPermissions(): the front end's read-only token's actions (src/read-only-token.js applies them);
 * - referenceLinks(): the relations components hold to declared types, and what holds each
 *   component (revalidation/reference-links.js: links by reference, C5);
 * - entryPath(uid, row): the type's `path` filled in from a row, without locale prefix, or null (the
 *   admin's Preview, src/preview/);
 * - forAdmin(): uid → { single, path, localized } for every declared type: what the admin's buttons
 *   are built from (GET /site-cache/content-types and /capabilities; admin/src/site-cache-actions.js).
 */
module.exports = ({ strapi }) => {
  let declarations = null;
  let references = null;
  const load = () => {
    declarations = readDeclarations(strapi.contentTypes);
    references = readReferenceLinks(strapi.components, strapi.contentTypes, new Set(declarations.keys()));
    return declarations;
  };
  const all = () => declarations ?? load();
  return {
    load,
    declarations: all,
    declarationOf: (uid) => all().get(uid) ?? null,
    tokenPermissions: () => tokenPermissions(all()),
    referenceLinks: () => {
      all();
      return references;
    },
    forAdmin: () =>
      Object.fromEntries(
        [...all().values()].map(({ uid, single, path, localized }) => [uid, { single, path, localized }]),
      ),
    entryPath: (uid, row) => {
      const declaration = all().get(uid);
      return declaration ? entryPath(declaration, row) : null;
    },
  };
};
