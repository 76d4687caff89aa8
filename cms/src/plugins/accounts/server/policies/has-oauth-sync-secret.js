"use strict";

const { checkBearerSecret } = require("../utils/secret");
const { refusalError, unauthorized } = require("../utils/refusals");

/**
 * The OAuth sync answers the site's server only: `Authorization: Bearer <CMS_OAUTH_SYNC_SECRET>`,
 * compared in constant time (../utils/secret.js) before the body is looked at. Unset on the CMS:
 * 503 (the sync cannot work); missing or wrong: 401 with `WWW-Authenticate: Bearer`.
 */
module.exports = (policyContext, _config, { strapi }) => {
  const { oauthSyncSecret } = strapi.config.get("plugin::accounts");
  const check = checkBearerSecret(policyContext.request.header.authorization, oauthSyncSecret);
  if (check === "ok") return true;
  if (check === "unconfigured") {
    throw refusalError(
      503,
      "OAuth sync is not configured: set CMS_OAUTH_SYNC_SECRET on the CMS (and the same value on the front end).",
      "NOT_CONFIGURED",
    );
  }
  // A policy gets a copy of the request's context without Koa's helpers: the response sets the header.
  policyContext.response.set("WWW-Authenticate", "Bearer");
  throw unauthorized(
    check === "missing" ? "Missing Authorization: Bearer <CMS_OAUTH_SYNC_SECRET>" : "Invalid OAuth sync secret",
    check === "missing" ? "MISSING_SECRET" : "INVALID_SECRET",
  );
};
