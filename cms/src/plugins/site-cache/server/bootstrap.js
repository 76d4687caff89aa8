"use strict";

/**
 * Reads the site's content types from their schemas (services/site-types.js): a malformed
 * `site-cache` block stops the start here, not at the first write. Two things of the plugin wait
 * for the application's bootstrap (src/index.js), which runs after the admin's: the Editor's grant
 * of the admin actions (services/permissions.js; the default roles are created by the admin's
 * bootstrap) and turning the revalidation on (after the seed, whose writes are not revalidated).
 */
module.exports = ({ strapi }) => {
  const declared = strapi.plugin("site-cache").service("site-types").load();
  strapi.log.info(`[revalidate] declared content types: ${[...declared.keys()].join(", ")}`);
};
