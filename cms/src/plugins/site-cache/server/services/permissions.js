"use strict";

const { grantEditorOnce } = require("../admin-actions");

/**
 * `strapi.plugin("site-cache").service("permissions")`: the grant of the plugin's admin actions
 * to the Editor role, once. Called by the application's bootstrap (src/index.js): Strapi
 * creates the default roles in the admin's bootstrap, which runs after the plugins' own.
 */
module.exports = ({ strapi }) => ({
  grantEditorOnce: () => grantEditorOnce(strapi),
});
