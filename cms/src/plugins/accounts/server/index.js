"use strict";

/**
 * The accounts plugin's server side (docs/architecture.md, "CMS"): what Strapi loads from
 * strapi-server.js. Shaped like Strapi's own plugins (users-permissions' server/). What it adds
 * to users-permissions itself (fields of the user, its JWT service, its auth controller) is done
 * in register.js through Strapi's registries (users-permissions/).
 */
module.exports = {
  register: require("./register"),
  bootstrap: require("./bootstrap"),
  config: require("./config"),
  contentTypes: require("./content-types"),
  controllers: require("./controllers"),
  services: require("./services"),
  routes: require("./routes"),
  policies: require("./policies"),
  middlewares: require("./middlewares"),
};
