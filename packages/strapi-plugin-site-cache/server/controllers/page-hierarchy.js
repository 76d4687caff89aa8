"use strict";

const { errors } = require("@strapi/utils");

const { REVERSE_BOUND } = require("../services/revalidation/declarations");
const { documentTag, typeTag } = require("@cms-site/cache-tags");
const { referenceHolders } = require("../services/revalidation/reference-links");

/** The tags of the documents holding a link by reference to a moved page (decision 0041). */
async function linkingTags(strapi, uid, moves) {
  if (moves.length === 0) return [];
  const index = strapi.plugin("site-cache").service("site-types").referenceLinks();
  const ids = moves.map((move) => move.documentId);
  const holders = await referenceHolders(strapi, index, uid, ids, { bound: REVERSE_BOUND });
  return holders.flatMap((group) =>
    group.overBound ? [typeTag(group.uid)] : group.documentIds.map((id) => documentTag(group.uid, id)),
  );
}

/**
 * POST /site-cache/page-hierarchy/recalculate (admin::hasPermissions: recalculate-hierarchy):
 * recomputes every page's fullPath, creates redirects for moved published pages, and
 * revalidates the old and new paths (and the moved pages' document tags: the sitemap lists them; and the
 * documents linking to them by reference) in one call. A clash or a cycle is the hierarchy's
 * ValidationError (400, from Strapi's error middleware).
 */
module.exports = ({ strapi }) => ({
  async recalculate(ctx) {
    const plugin = strapi.plugin("site-cache");
    const hierarchy = plugin.service("page-hierarchy");
    const uid = hierarchy.settings()?.uid;
    if (!uid) throw new errors.NotFoundError("This CMS has no page hierarchy (the site-cache plugin's `hierarchy`).");
    const result = await hierarchy.recalculateAll();
    const revalidated = result.paths.length
      ? await plugin.service("revalidation").revalidate({
          uid,
          fullPaths: result.paths,
          tags: [
            ...new Set([
              ...result.moves.map((move) => documentTag(uid, move.documentId)),
              ...(await linkingTags(strapi, uid, result.moves)),
            ]),
          ],
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
