"use strict";

// The admin routes are guarded by Strapi's own admin::hasPermissions (routes/admin/index.js).
module.exports = {};
