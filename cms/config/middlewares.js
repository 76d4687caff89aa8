"use strict";

module.exports = [
  "strapi::logger",
  "strapi::errors",
  "strapi::security",
  "strapi::cors",
  "strapi::poweredBy",
  // Only the site's server may call /api/auth/* and /api/connect/* when CMS_ACCOUNT_API_SECRET is
  // set (docs/security.md, finding 24); before the body parser and the routes' own rate limit.
  "plugin::accounts.account-api-guard",
  "strapi::query",
  "strapi::body",
  "strapi::session",
  "strapi::favicon",
  // Nothing uploaded runs on the CMS's origin: sandboxed, never sniffed, saved unless a medium or a
  // PDF (src/middlewares/uploads-sandbox.js; docs/security.md, finding 41).
  "global::uploads-sandbox",
  "strapi::public",
];
