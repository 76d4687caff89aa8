"use strict";

/**
 * POST /api/page-hierarchy/recalculate — the hierarchy single-type action: recomputes every
 * page's fullPath, creates redirects for moved published pages and revalidates old and new
 * paths in one call. Admin token with the "Recalculate the page hierarchy" permission required
 * (checked by the controller; `auth: false`; src/revalidation/admin-permission.js).
 */
module.exports = {
  routes: [
    {
      method: "POST",
      path: "/page-hierarchy/recalculate",
      handler: "page-hierarchy.recalculate",
      config: { auth: false, policies: [], middlewares: [] },
    },
  ],
};
