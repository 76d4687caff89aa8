"use strict";

const { PERMISSIONS, requires } = require("../../admin-actions");

/**
 * The admin actions, mounted under /site-cache (a plugin's admin routes): Strapi authenticates
 * the admin (401 without a valid admin token) and admin::hasPermissions checks the action
 * (403 otherwise). Callers: the admin page and buttons (admin/src/), the tests.
 */
module.exports = {
  type: "admin",
  routes: [
    {
      method: "POST",
      path: "/revalidate",
      handler: "revalidate.revalidate",
      config: { policies: requires(PERMISSIONS.revalidate) },
    },
    {
      method: "POST",
      path: "/cdn-purge",
      handler: "cdn-purge.purge",
      config: { policies: requires(PERMISSIONS.purgeCdn) },
    },
    {
      method: "GET",
      path: "/capabilities",
      handler: "capabilities.show",
      config: { policies: requires(PERMISSIONS.purgeCdn) },
    },
    {
      method: "GET",
      path: "/content-types",
      handler: "content-types.list",
      config: { policies: requires(PERMISSIONS.revalidate) },
    },
    {
      method: "POST",
      path: "/page-hierarchy/recalculate",
      handler: "page-hierarchy.recalculate",
      config: { policies: requires(PERMISSIONS.recalculateHierarchy) },
    },
    {
      method: "GET",
      path: "/failures",
      handler: "failures.list",
      config: { policies: requires(PERMISSIONS.revalidate) },
    },
    {
      method: "DELETE",
      path: "/failures/:id",
      handler: "failures.remove",
      config: { policies: requires(PERMISSIONS.revalidate) },
    },
    {
      method: "POST",
      path: "/failures/retry",
      handler: "failures.retry",
      config: { policies: requires(PERMISSIONS.revalidate) },
    },
  ],
};
