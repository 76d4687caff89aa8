"use strict";

const { checkBearerSecret } = require("../lib/secret");
const { validateSyncBody, httpError } = require("../lib/sync");

function send(ctx, { status, body }) {
  ctx.status = status;
  ctx.body = body;
}

module.exports = ({ strapi }) => ({
  async sync(ctx) {
    // 1. The caller: checked in constant time before anything in the body is looked at.
    const check = checkBearerSecret(ctx.request.header.authorization, process.env.CMS_OAUTH_SYNC_SECRET);
    if (check === "unconfigured") {
      return send(
        ctx,
        httpError(
          503,
          "ServiceUnavailableError",
          "OAuth sync is not configured: set CMS_OAUTH_SYNC_SECRET on the CMS (and the same value on the front end).",
        ),
      );
    }
    if (check !== "ok") {
      ctx.set("WWW-Authenticate", "Bearer");
      return send(
        ctx,
        httpError(
          401,
          "UnauthorizedError",
          check === "missing" ? "Missing Authorization: Bearer <CMS_OAUTH_SYNC_SECRET>" : "Invalid OAuth sync secret",
        ),
      );
    }

    // 2. The body.
    const { value, error } = validateSyncBody(ctx.request.body);
    if (error) return send(ctx, error);

    // 3. Find, create or link the user; issue a JWT.
    return send(ctx, await strapi.service("api::oauth-sync.oauth-sync").sync(value, { auth: ctx.state.auth }));
  },
});
