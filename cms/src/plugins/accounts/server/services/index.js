"use strict";

module.exports = {
  "auth-settings": require("./auth-settings"),
  "oauth-sync": require("./oauth-sync"),
  permissions: require("./permissions"),
};
