"use strict";

/**
 * The site-cache plugin's server side (docs/architecture.md, "CMS"): what Strapi loads from
 * strapi-server.js. Shaped like Strapi's own plugins (users-permissions' server/).
 */
module.exports = {
  register: require("./register"),
  bootstrap: require("./bootstrap"),
  destroy: require("./destroy"),
  config: require("./config"),
  contentTypes: require("./content-types"),
  controllers: require("./controllers"),
  services: require("./services"),
  routes: require("./routes"),
  policies: require("./policies"),
  middlewares: require("./middlewares"),
};
