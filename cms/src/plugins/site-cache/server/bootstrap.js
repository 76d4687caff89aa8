"use strict";

/**
 * Nothing to do here. Two things of the plugin wait for the application's bootstrap
 * (src/index.js), which runs after the admin's: the Editor's grant of the admin actions
 * (services/permissions.js; the default roles are created by the admin's bootstrap) and turning
 * the revalidation on (after the seed, whose writes are not revalidated).
 */
module.exports = () => {};
