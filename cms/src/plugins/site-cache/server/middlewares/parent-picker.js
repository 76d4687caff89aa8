"use strict";

const { queryWithout, selfAndDescendants } = require("../services/page-hierarchy/descendants");

/**
 * The Content Manager's parent picker of a page lists candidates through
 * `GET /content-manager/relations/api::page.page/parent?id=<documentId>&locale=…` (Strapi's
 * relations.findAvailable, which takes the `filters` of the query after its permission check).
 * This Koa middleware, before the routes, adds the page itself and every page below it to the
 * query's filters: the picker never offers a parent that would make a cycle. The save refuses a
 * cycle anyway (full-path-sync.js, a ValidationError the editor sees), for a client that asks
 * for one through the API.
 */
const PICKER_PATH = "/content-manager/relations/api::page.page/parent";

function decodedPath(path) {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

const omitCycleParents =
  ({ strapi }) =>
  async (ctx, next) => {
    if (ctx.method !== "GET" || decodedPath(ctx.path) !== PICKER_PATH) return next();
    const { id, locale } = ctx.query;
    if (typeof id !== "string" || id === "") return next();
    const excluded = await selfAndDescendants(strapi, id, typeof locale === "string" && locale ? locale : undefined);
    ctx.query = queryWithout(ctx.query, excluded);
    return next();
  };

module.exports = { omitCycleParents, PICKER_PATH };
