"use strict";

/**
 * POST /api/revalidate-cache — manual revalidation (the admin's "Revalidate cache" button).
 * `auth: false` switches off Strapi's content-API auth: the controller requires an ADMIN
 * access token itself (src/revalidation/admin-token.js), of an admin whose role has the
 * "Revalidate the site cache" permission (src/revalidation/admin-permission.js).
 */
module.exports = {
  routes: [
    {
      method: "POST",
      path: "/revalidate-cache",
      handler: "revalidate-cache.revalidate",
      config: { auth: false, policies: [], middlewares: [] },
    },
  ],
};
