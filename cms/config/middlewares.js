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
  "strapi::public",
];
