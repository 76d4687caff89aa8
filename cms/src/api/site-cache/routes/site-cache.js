"use strict";

/**
 * The admin's "Site cache" page (src/admin/site-cache-page.jsx): the recorded revalidation
 * failures, and a retry of them. `auth: false` switches off the content-API auth: the controller
 * requires an ADMIN access token itself, of an admin whose role has the "Revalidate the site
 * cache" permission (src/revalidation/admin-permission.js), like POST /api/revalidate-cache.
 */
module.exports = {
  routes: [
    {
      method: "GET",
      path: "/site-cache/failures",
      handler: "site-cache.failures",
      config: { auth: false, policies: [], middlewares: [] },
    },
    {
      method: "POST",
      path: "/site-cache/failures/retry",
      handler: "site-cache.retry",
      config: { auth: false, policies: [], middlewares: [] },
    },
  ],
};
