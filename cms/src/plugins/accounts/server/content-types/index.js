"use strict";

module.exports = {
  "oauth-identity": require("./oauth-identity"),
};
