"use strict";

const { documentTagFor } = require("../services/revalidation/payload");

/**
 * POST /site-cache/page-hierarchy/recalculate (admin::hasPermissions: recalculate-hierarchy):
 * recomputes every page's fullPath, creates redirects for moved published pages, and
 * revalidates the old and new paths (and the moved pages' document tags: the sitemap lists them) in one call. A clash or a cycle is the hierarchy's
 * ValidationError (400, from Strapi's error middleware).
 */
module.exports = ({ strapi }) => ({
  async recalculate(ctx) {
    const plugin = strapi.plugin("site-cache");
    const result = await plugin.service("page-hierarchy").recalculateAll();
    const revalidated = result.paths.length
      ? await plugin.service("revalidation").revalidate({
          uid: "api::page.page",
          fullPaths: result.paths,
          tags: [...new Set(result.moves.map((move) => documentTagFor("api::page.page", move.documentId)))],
        })
      : { sent: false, reason: "nothing moved" };
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
          accepted: Boolean(revalidated.ok),
          status: revalidated.status ?? null,
          reason: revalidated.reason ?? revalidated.error,
        },
      },
    };
  },
});
