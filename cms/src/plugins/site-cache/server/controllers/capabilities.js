"use strict";

/**
 * GET /site-cache/capabilities (admin::hasPermissions: purge-cdn): what this CMS can do for the
 * admin's buttons. `cdnPurge`: a CDN purge is set up (CMS_CDN_PURGE_SECRET); without it the admin
 * shows no "Purge CDN" and no "Purge the whole CDN" (admin/src/use-cdn-purge.js).
 */
module.exports = ({ strapi }) => ({
  show(ctx) {
    ctx.body = { data: { cdnPurge: strapi.plugin("site-cache").service("cdn-purge").enabled() } };
  },
});
