"use strict";

/**
 * The plugin's configuration (cms/config/plugins.js passes it; nothing here reads process.env).
 *
 * - maxQueryLength: characters of a query the route accepts (longer: 400).
 * - maxTerms: words of a query that are searched for (the rest are ignored): bounds the work of one query.
 * - pageSize: results per page.
 * - maxPage: the last page the route answers (beyond: 400): nobody reads page 51 of a site search,
 *   and a deep OFFSET costs the database the rows it skips.
 * - engine: where the index lives: "database" (the CMS's own, SQLite or PostgreSQL) or "groonga"
 *   (a Groonga server at groongaUrl; docs/search.md, "Groonga").
 * - groongaUrl: Groonga's HTTP address (engine "groonga" only).
 * - groongaTimeoutMs: how long one call to Groonga may take before the search answers 503 or the
 *   index write is retried.
 * - retryIntervalMs: how often index writes that failed (the engine down) are tried again.
 */
const DEFAULTS = Object.freeze({
  maxQueryLength: 200,
  maxTerms: 8,
  pageSize: 10,
  maxPage: 50,
  engine: "database",
  groongaUrl: "",
  groongaTimeoutMs: 3_000,
  retryIntervalMs: 30_000,
});
const COUNTS = ["maxQueryLength", "maxTerms", "pageSize", "maxPage", "groongaTimeoutMs", "retryIntervalMs"];
const ENGINES = ["database", "groonga"];

const positiveInteger = (value) => Number.isInteger(value) && value > 0;

function isHttpUrl(value) {
  try {
    return ["http:", "https:"].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

module.exports = {
  default: DEFAULTS,
  validator(config) {
    for (const key of COUNTS) {
      if (!positiveInteger(config[key])) {
        throw new Error(`[site-search] config.${key} must be a positive integer, not ${JSON.stringify(config[key])}`);
      }
    }
    if (!ENGINES.includes(config.engine)) {
      throw new Error(
        `[site-search] config.engine must be one of ${ENGINES.join(", ")}, not ${JSON.stringify(config.engine)}`,
      );
    }
    if (config.engine === "groonga" && !isHttpUrl(config.groongaUrl)) {
      throw new Error(
        `[site-search] with the engine "groonga", config.groongaUrl must be Groonga's http(s) address, not ${JSON.stringify(config.groongaUrl)}`,
      );
    }
  },
};
