"use strict";

module.exports = {
  "account-sessions": require("./account-sessions"),
  "account-settings": require("./account-settings"),
  "account-two-factor": require("./account-two-factor"),
  "oauth-sync": require("./oauth-sync"),
};
