"use strict";

/**
 * GET /site-cache/capabilities (admin::hasPermissions: purge-cdn): what this CMS can do for the
 * admin's buttons. `cdnPurge`: a CDN purge is set up (CMS_CDN_PURGE_SECRET); without it the admin
 * shows no "Purge CDN" and no "Purge the whole CDN" (admin/src/use-cdn-purge.js). `types`: the
 * declared content types, which the "Purge CDN" button is shown on (as GET /content-types, for
 * admins who may purge but not revalidate).
 */
module.exports = ({ strapi }) => ({
  show(ctx) {
    const plugin = strapi.plugin("site-cache");
    ctx.body = {
      data: { cdnPurge: plugin.service("cdn-purge").enabled(), types: plugin.service("site-types").forAdmin() },
    };
  },
});
