"use strict";

/**
 * POST /api/cdn-purge on the CMS — an admin action: purge paths, tags or everything from the
 * CDN in front of the site, through the front end's /api/cdn-purge. `auth: false` switches off
 * the content-API auth: the controller requires an ADMIN access token itself, of an admin whose
 * role has the "Purge the CDN" permission (src/revalidation/admin-permission.js).
 */
module.exports = {
  routes: [
    {
      method: "POST",
      path: "/cdn-purge",
      handler: "cdn-purge.purge",
      config: { auth: false, policies: [], middlewares: [] },
    },
  ],
};
