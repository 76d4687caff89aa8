"use strict";

module.exports = {
  submission: { schema: require("./submission/schema.json") },
};
