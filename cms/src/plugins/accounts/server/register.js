"use strict";

const { extendUsersPermissionsPlugin } = require("./users-permissions");

/**
 * What the plugin adds to users-permissions (./users-permissions/index.js): the user's private
 * fields and their write guards, the wrapped JWT service and auth controller, the document
 * middleware that keeps the fields out of the admin. Here, in register: before the database
 * schema is synced (the fields become columns) and before the routes take their controllers.
 */
module.exports = ({ strapi }) => {
  const { resetLinkTtlSeconds } = strapi.config.get("plugin::accounts");
  extendUsersPermissionsPlugin(strapi, { resetLinkTtlMs: resetLinkTtlSeconds * 1000 });
};
