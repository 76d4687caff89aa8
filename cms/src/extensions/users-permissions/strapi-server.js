"use strict";

const { extendUsersPermissions } = require("./sessions-valid-after");

/**
 * Extension of the users-permissions plugin (Strapi loads this file itself): the user's
 * `sessionsValidAfter`, so that a password change or reset ends every other session
 * (see ./sessions-valid-after.js).
 */
module.exports = (plugin) => extendUsersPermissions(plugin);
