"use strict";

// The admin routes are guarded by Strapi's own admin::hasPermissions (routes/admin/index.js).
// may-schedule guards the Content Manager's own create and update routes (policies/may-schedule.js).
module.exports = {
  "may-schedule": require("./may-schedule").maySchedule,
};
