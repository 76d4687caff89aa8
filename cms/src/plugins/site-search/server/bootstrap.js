"use strict";

/**
 * The index's tables, and the whole index built when it is empty (a new database, or one from
 * before the search). A failure is logged: the CMS starts, the site's search answers 503 until the
 * next start.
 */
module.exports = async ({ strapi }) => {
  try {
    await strapi.plugin("site-search").service("search").ensure();
  } catch (error) {
    strapi.log.error(`[site-search] could not prepare the index: ${error.stack ?? error.message}`);
  }
};
