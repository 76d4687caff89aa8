'use strict';

/**
 * POST /api/page-hierarchy/recalculate — the hierarchy single-type action: recomputes every
 * page's fullPath, creates redirects for moved published pages and revalidates old and new
 * paths in one call. Admin token required (checked by the controller; `auth: false`).
 */
module.exports = {
  routes: [
    {
      method: 'POST',
      path: '/page-hierarchy/recalculate',
      handler: 'page-hierarchy.recalculate',
      config: { auth: false, policies: [], middlewares: [] },
    },
  ],
};
