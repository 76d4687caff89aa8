"use strict";

const { extendUsersPermissionsPlugin } = require("./users-permissions");
const { assertRefreshMode } = require("./users-permissions/session-check");

/**
 * What the plugin adds to users-permissions (./users-permissions/index.js): the user's private
 * fields and their write guards, the wrapped JWT service and auth controller, the document
 * middleware that keeps the fields out of the admin. Here, in register: before the database
 * schema is synced (the fields become columns) and before the routes take their controllers.
 * First of all, the refusal to start in any session mode but Strapi's refresh one
 * (docs/decisions/0025-strapi-session-management.md).
 */
module.exports = ({ strapi }) => {
  assertRefreshMode(strapi);
  const { resetLinkTtlSeconds } = strapi.config.get("plugin::accounts");
  extendUsersPermissionsPlugin(strapi, { resetLinkTtlMs: resetLinkTtlSeconds * 1000 });
};
