"use strict";

/** Stops the periodic retry of recorded failures and the scheduler. */
module.exports = ({ strapi }) => {
  strapi.plugin("site-cache").service("revalidation").stop();
  strapi.plugin("site-cache").service("schedule").stop();
};
