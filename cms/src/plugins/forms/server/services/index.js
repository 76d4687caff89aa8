"use strict";

module.exports = {
  submissions: require("./submissions"),
  "mail-delivery": require("./mail-delivery"),
  export: require("./export"),
  permissions: require("./permissions"),
};
