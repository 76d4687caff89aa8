"use strict";

/** Stops the periodic retry of recorded failures. */
module.exports = ({ strapi }) => {
  strapi.plugin("site-cache").service("revalidation").stop();
};
