"use strict";

module.exports = {
  "has-oauth-sync-secret": require("./has-oauth-sync-secret"),
};
