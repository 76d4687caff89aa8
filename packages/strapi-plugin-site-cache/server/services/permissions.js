"use strict";

const { grantEditorOnce } = require("../admin-actions");

/**
 * `strapi.plugin("site-cache").service("permissions")`: the grant of the plugin's admin actions
 * to the Editor role, once (../admin-actions.js): from the plugin's bootstrap, and as a new
 * database's Editor role is created.
 */
module.exports = ({ strapi }) => ({
  grantEditorOnce: () => grantEditorOnce(strapi),
});
