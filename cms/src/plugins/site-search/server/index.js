"use strict";

/**
 * The site-search plugin's server side (docs/search.md): what Strapi loads from strapi-server.js.
 * Shaped like Strapi's own plugins (users-permissions' server/).
 */
module.exports = {
  register: require("./register"),
  bootstrap: require("./bootstrap"),
  destroy: ({ strapi }) => strapi.plugin("site-search").service("search").stop(),
  config: require("./config"),
  controllers: require("./controllers"),
  services: require("./services"),
  routes: require("./routes"),
};
