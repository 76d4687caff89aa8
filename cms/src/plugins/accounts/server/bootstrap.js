"use strict";

/**
 * Nothing at the plugin's own bootstrap. What the plugin does on every start needs what
 * users-permissions' bootstrap creates on a fresh database (the Authenticated role, the advanced
 * settings and email templates), and a local plugin's bootstrap may run before it (measured: on an
 * empty database the grant found no role). So the application's bootstrap (src/index.js), which
 * runs after every plugin's, calls `strapi.plugin("accounts").service("auth-settings").apply()` and
 * `.service("permissions").grantAuthenticated()`, as it calls the site-cache plugin's grant.
 */
module.exports = async () => {};
