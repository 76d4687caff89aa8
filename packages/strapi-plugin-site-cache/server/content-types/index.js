"use strict";

module.exports = {
  "revalidation-failure": require("./revalidation-failure"),
};
