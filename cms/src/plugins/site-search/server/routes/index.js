"use strict";

/**
 * GET /api/site-search?q=&locale=&page=: the site's search (docs/search.md). Authenticated like any
 * content-API route: the read-only token holds its action (`plugin::site-search.search.query`,
 * src/read-only-token.js), no users-permissions role does.
 */
module.exports = {
  "content-api": {
    type: "content-api",
    routes: [{ method: "GET", path: "/site-search", handler: "search.query", config: { prefix: "" } }],
  },
};
