"use strict";

const { FAILURE } = require("../services/revalidation/service");
const { describeFailure, FAILURES_SHOWN } = require("../services/revalidation/failures");
const { revalidationOn } = require("./revalidation-on");

/** The admin's "Site cache" page (admin::hasPermissions: revalidate). */
module.exports = ({ strapi }) => ({
  /**
   * GET /site-cache/failures: the most recently tried failures (at most FAILURES_SHOWN), how many
   * there are, and how many revalidations of editor writes are being sent right now (`inFlight`).
   */
  async list(ctx) {
    const [rows, total] = await Promise.all([
      strapi.db.query(FAILURE).findMany({ orderBy: [{ lastTriedAt: "desc" }, { id: "desc" }], limit: FAILURES_SHOWN }),
      strapi.db.query(FAILURE).count(),
    ]);
    const inFlight = strapi.plugin("site-cache").service("revalidation").inFlight();
    ctx.body = { data: rows.map(describeFailure), meta: { total, inFlight } };
  },

  /**
   * DELETE /site-cache/failures/:id: removes one recorded failure (a rejected one, kept for a look,
   * or one an admin gives up on); the type is not in the Content Manager. 404 when there is none.
   */
  async remove(ctx) {
    const id = Number(ctx.params.id);
    if (!Number.isSafeInteger(id) || id < 1) return ctx.badRequest("The failure id must be a positive integer");
    const removed = await strapi.db.query(FAILURE).delete({ where: { id } });
    if (!removed) return ctx.notFound(`No revalidation failure #${id}`);
    strapi.log.info(`[revalidate] failure #${id} removed by admin ${ctx.state.user.email}`);
    ctx.body = { data: { id } };
  },

  /** POST /site-cache/failures/retry: every pending and unauthorized failure again now (rejected ones stay). */
  async retry(ctx) {
    const service = revalidationOn(strapi, ctx);
    if (!service) return;
    const result = await service.retryFailures({ includeUnauthorized: true });
    strapi.log.info(`[revalidate] retry by admin ${ctx.state.user.email}: ${JSON.stringify(result)}`);
    ctx.body = { data: result };
  },
});
