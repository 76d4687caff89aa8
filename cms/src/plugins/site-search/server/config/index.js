"use strict";

/**
 * The plugin's configuration (cms/config/plugins.js passes it; nothing here reads process.env).
 *
 * - maxQueryLength: characters of a query the route accepts (longer: 400).
 * - maxTerms: words of a query that are searched for (the rest are ignored): bounds the work of one query.
 * - pageSize: results per page.
 * - maxPage: the last page the route answers (beyond: 400): nobody reads page 51 of a site search,
 *   and a deep OFFSET costs the database the rows it skips.
 */
const DEFAULTS = Object.freeze({ maxQueryLength: 200, maxTerms: 8, pageSize: 10, maxPage: 50 });

const positiveInteger = (value) => Number.isInteger(value) && value > 0;

module.exports = {
  default: DEFAULTS,
  validator(config) {
    for (const key of Object.keys(DEFAULTS)) {
      if (!positiveInteger(config[key])) {
        throw new Error(`[site-search] config.${key} must be a positive integer, not ${JSON.stringify(config[key])}`);
      }
    }
  },
};
