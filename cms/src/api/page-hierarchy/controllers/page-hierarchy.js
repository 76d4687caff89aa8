"use strict";

const { recalculateAll } = require("../../../page-hierarchy/batch");
const { PERMISSIONS, requireAdmin, revalidation, sendError } = require("../../../revalidation");

module.exports = ({ strapi }) => ({
  async recalculate(ctx) {
    const auth = await requireAdmin(strapi, ctx, PERMISSIONS.recalculateHierarchy);
    if (auth.status !== 200) return sendError(ctx, auth.status, auth.message);
    try {
      const result = await recalculateAll(strapi, revalidation());
      ctx.body = {
        data: {
          moved: result.moves,
          redirects: {
            created: result.redirects.create,
            updated: result.redirects.update,
            removed: result.redirects.remove,
          },
          revalidated: {
            paths: result.paths,
            accepted: Boolean(result.revalidated?.ok),
            status: result.revalidated?.status ?? null,
            reason: result.revalidated?.reason ?? result.revalidated?.error,
          },
        },
      };
    } catch (error) {
      if (error?.name === "ValidationError") return sendError(ctx, 400, error.message, error.details ?? {});
      throw error;
    }
  },
});
