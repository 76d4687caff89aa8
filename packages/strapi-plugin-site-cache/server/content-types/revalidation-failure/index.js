"use strict";

module.exports = { schema: require("./schema.json") };
