"use strict";

/**
 * GET /site-cache/content-types (admin::hasPermissions: revalidate): the content types declared in
 * their schemas (`pluginOptions["site-cache"]`), as the admin's "Revalidate cache" button needs
 * them: uid → { single, path, localized } (services/site-types.js, forAdmin).
 */
module.exports = ({ strapi }) => ({
  list(ctx) {
    ctx.body = { data: { types: strapi.plugin("site-cache").service("site-types").forAdmin() } };
  },
});
