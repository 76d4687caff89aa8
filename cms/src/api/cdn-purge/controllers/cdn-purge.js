"use strict";

const { validatePurgeBody } = require("../../../cdn-purge/body");
const { forwardPurge } = require("../../../cdn-purge/forward");
const { PERMISSIONS, requireAdmin, sendError } = require("../../../revalidation");

module.exports = ({ strapi }) => ({
  async purge(ctx) {
    const auth = await requireAdmin(strapi, ctx, PERMISSIONS.purgeCdn);
    if (auth.status !== 200) return sendError(ctx, auth.status, auth.message);

    const { value, errors } = validatePurgeBody(ctx.request.body);
    if (errors) {
      return sendError(
        ctx,
        400,
        `Invalid body: ${errors.map((e) => `${e.path.join(".") || "(body)"} ${e.message}`).join("; ")}`,
        { errors },
      );
    }
    const secret = process.env.CMS_CDN_PURGE_SECRET;
    if (!secret)
      return sendError(
        ctx,
        503,
        "CDN purge is off: set CMS_CDN_PURGE_SECRET on the CMS (and the same value on the front end).",
      );
    const clientUrl = (process.env.CLIENT_URL || "http://localhost:3000").replace(/\/+$/, "");

    const result = await forwardPurge(value, { clientUrl, secret });
    strapi.log.info(`[cdn-purge] by admin ${auth.user.email}: ${JSON.stringify(value)} → ${result.status}`);
    ctx.status = result.status;
    ctx.body =
      result.status === 200
        ? { data: result.body }
        : {
            data: null,
            error: {
              status: result.status,
              message: result.body?.error ?? "CDN purge failed",
              details: result.body ?? {},
            },
          };
  },
});
