"use strict";

/**
 * Reads the site's content types from their schemas (services/site-types.js): a malformed
 * `site-cache` block stops the start here, not at the first write. Then the page edit view is made
 * to say what the CMS does (services/page-layout/: fullPath read-only, the parent picker by path),
 * after the Content Manager's own bootstrap has synced the stored layouts. Two things of the plugin
 * wait for the application's bootstrap (src/index.js), which runs after the admin's: the Editor's
 * grant of the admin actions (services/permissions.js; the default roles are created by the admin's
 * bootstrap) and turning the revalidation on (after the seed, whose writes are not revalidated).
 */
module.exports = async ({ strapi }) => {
  const plugin = strapi.plugin("site-cache");
  const declared = plugin.service("site-types").load();
  strapi.log.info(`[revalidate] declared content types: ${[...declared.keys()].join(", ")}`);
  await plugin.service("page-layout").apply();
};
