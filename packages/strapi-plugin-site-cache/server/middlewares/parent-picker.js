"use strict";

const { queryWithout, selfAndAncestors, selfAndDescendants } = require("../services/page-hierarchy/descendants");
const { hierarchySettings } = require("../services/page-hierarchy/settings");

/**
 * The Content Manager's relation pickers of a page (the configured hierarchy's type and its parent
 * field, and that relation's other side) list candidates through
 * `GET /content-manager/relations/<uid>/<parent|children>?id=<documentId>&locale=…`
 * (Strapi's relations.findAvailable, which takes the `filters` of the query after its permission
 * check). This Koa middleware, before the routes, adds to the query's filters the pages that would
 * make a cycle: for `parent` the page itself and every page below it, for `children` the page
 * itself and every page above it. The save refuses a cycle anyway (full-path-sync.js, a
 * ValidationError the editor sees), for a client that asks for one through the API.
 */
function pickers({ uid, parentField, childrenField }) {
  const base = `/content-manager/relations/${uid}`;
  return {
    [`${base}/${parentField}`]: selfAndDescendants,
    ...(childrenField ? { [`${base}/${childrenField}`]: selfAndAncestors } : {}),
  };
}

function decodedPath(path) {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/** The Koa middleware; none (a pass-through) without a configured hierarchy. */
const omitCycleParents = ({ strapi }) => {
  const hierarchy = hierarchySettings(strapi);
  if (!hierarchy) return (_ctx, next) => next();
  const PICKERS = pickers(hierarchy);
  return async (ctx, next) => {
    const cycleMakers = ctx.method === "GET" ? PICKERS[decodedPath(ctx.path)] : undefined;
    if (!cycleMakers) return next();
    const { id, locale } = ctx.query;
    if (typeof id !== "string" || id === "") return next();
    const excluded = await cycleMakers(strapi, id, typeof locale === "string" && locale ? locale : undefined);
    ctx.query = queryWithout(ctx.query, excluded);
    return next();
  };
};

module.exports = { omitCycleParents, pickers };
