"use strict";

// Nothing of the accounts is an admin action: the users themselves are managed in the
// Content Manager (plugin::users-permissions.user).
module.exports = { type: "admin", routes: [] };
