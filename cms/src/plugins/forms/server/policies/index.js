"use strict";

module.exports = {
  "from-site": require("./from-site"),
};
