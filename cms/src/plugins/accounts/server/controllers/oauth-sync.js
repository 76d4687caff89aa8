"use strict";

const { validateSyncBody } = require("../services/oauth-sync/sync");
const { errorOf } = require("../utils/refusals");

/**
 * POST /api/oauth-sync (server to server): the caller's secret was checked by the route's policy
 * (../policies/has-oauth-sync-secret.js) before anything in the body is looked at.
 */
module.exports = ({ strapi }) => ({
  async sync(ctx) {
    const { value, error } = validateSyncBody(ctx.request.body);
    if (error) throw errorOf(error);
    const outcome = await strapi.plugin("accounts").service("oauth-sync").sync(value, { auth: ctx.state.auth });
    if (outcome.refusal) throw errorOf(outcome.refusal);
    ctx.status = outcome.status;
    ctx.body = outcome.body;
  },
});
