"use strict";

const { PERMISSIONS, requireAdmin, revalidation, revalidationOn, sendError } = require("../../../revalidation");
const { FAILURE } = require("../../../revalidation/service");
const { describeFailure, FAILURES_SHOWN } = require("../../../revalidation/failures");

module.exports = ({ strapi }) => ({
  /**
   * GET: the most recently tried failures (at most FAILURES_SHOWN), how many there are, and how
   * many revalidations of editor writes are being sent right now (`inFlight`).
   */
  async failures(ctx) {
    const auth = await requireAdmin(strapi, ctx, PERMISSIONS.revalidate);
    if (auth.status !== 200) return sendError(ctx, auth.status, auth.message);
    const [rows, total] = await Promise.all([
      strapi.db.query(FAILURE).findMany({ orderBy: [{ lastTriedAt: "desc" }, { id: "desc" }], limit: FAILURES_SHOWN }),
      strapi.db.query(FAILURE).count(),
    ]);
    ctx.body = { data: rows.map(describeFailure), meta: { total, inFlight: revalidation().inFlight() } };
  },

  /** POST: sends every pending and unauthorized failure again now (rejected ones stay as they are). */
  async retry(ctx) {
    const auth = await requireAdmin(strapi, ctx, PERMISSIONS.revalidate);
    if (auth.status !== 200) return sendError(ctx, auth.status, auth.message);
    const service = revalidationOn(ctx);
    if (!service) return;
    const result = await service.retryFailures({ includeUnauthorized: true });
    strapi.log.info(`[revalidate] retry by admin ${auth.user.email}: ${JSON.stringify(result)}`);
    ctx.body = { data: result };
  },
});
