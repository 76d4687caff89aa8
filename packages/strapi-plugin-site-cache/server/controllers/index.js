"use strict";

module.exports = {
  revalidate: require("./revalidate"),
  "cdn-purge": require("./cdn-purge"),
  "page-hierarchy": require("./page-hierarchy"),
  failures: require("./failures"),
  capabilities: require("./capabilities"),
  "content-types": require("./content-types"),
};
