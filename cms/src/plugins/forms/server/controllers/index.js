"use strict";

module.exports = {
  submissions: require("./submissions"),
};
