"use strict";

const { entryPath, readDeclarations, tokenPermissions } = require("./revalidation/declarations");

/**
 * `strapi.plugin("site-cache").service("site-types")`: the registry of the content types the site
 * reads, from the `site-cache` block of each schema (revalidation/declarations.js). Read once,
 * from `strapi.contentTypes`, at the plugin's bootstrap (a malformed block stops the start there).
 * - declarationOf(uid): the type's declaration, or null (not revalidated, not readable by the token);
 * - tokenPermissions(): the front end's read-only token's actions (src/read-only-token.js applies them);
 * - entryPath(uid, row): the type's `path` filled in from a row, without locale prefix, or null (the
 *   admin's Preview, src/preview/).
 */
module.exports = ({ strapi }) => {
  let declarations = null;
  const load = () => {
    declarations = readDeclarations(strapi.contentTypes);
    return declarations;
  };
  const all = () => declarations ?? load();
  return {
    load,
    declarations: all,
    declarationOf: (uid) => all().get(uid) ?? null,
    tokenPermissions: () => tokenPermissions(all()),
    entryPath: (uid, row) => {
      const declaration = all().get(uid);
      return declaration ? entryPath(declaration, row) : null;
    },
  };
};
