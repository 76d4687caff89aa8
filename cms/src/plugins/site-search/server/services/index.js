"use strict";

module.exports = { search: require("./search") };
