"use strict";

module.exports = {
  // Installed globally, before the body parser, by cms/config/middlewares.js.
  "account-api-guard": require("./account-api-guard"),
};
