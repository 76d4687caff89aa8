"use strict";

module.exports = {
  revalidation: require("./revalidation"),
  "page-hierarchy": require("./page-hierarchy"),
  "page-layout": require("./page-layout"),
  "cdn-purge": require("./cdn-purge"),
  permissions: require("./permissions"),
  "site-types": require("./site-types"),
  schedule: require("./schedule"),
};
