"use strict";

/**
 * On every start: the users-permissions settings that are configuration (services/auth-settings:
 * only what differs is written), and the Authenticated role's grant of the plugin's actions
 * (services/permissions.js), so the account routes work in production too. users-permissions'
 * own bootstrap, which creates the roles and settings of a fresh database, runs before this one.
 */
module.exports = async ({ strapi }) => {
  const plugin = strapi.plugin("accounts");
  await plugin.service("auth-settings").apply();
  await plugin.service("permissions").grantAuthenticated();
};
