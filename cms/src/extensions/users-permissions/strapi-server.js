"use strict";

const { extendUsersPermissions } = require("./sessions-valid-after");
const { extendEmailChange } = require("./email-change-fields");

/**
 * Extension of the users-permissions plugin (Strapi loads this file itself): the user's
 * `sessionsValidAfter`, so that a password change or reset ends every other session
 * (see ./sessions-valid-after.js); the pending email change (./email-change-fields.js).
 */
module.exports = (plugin) => extendEmailChange(extendUsersPermissions(plugin));
