"use strict";

const { HEADER, SITE_ONLY_BODY, UNSET_WARNING, checkAccountApiRequest, readSecret } = require("./index");

/**
 * Global Koa middleware (config/middlewares.js): the account API guard of index.js. It runs before
 * the body is parsed and before the route's own rate limit, so a refused request costs nothing.
 * CMS_ACCOUNT_API_SECRET is read once, at start; unset, the CMS logs one warning and nothing changes.
 */
module.exports = (_config, { strapi }) => {
  const secret = readSecret(process.env.CMS_ACCOUNT_API_SECRET);
  if (secret === undefined) {
    strapi.log.warn(UNSET_WARNING);
    return (_ctx, next) => next();
  }
  return async (ctx, next) => {
    if (checkAccountApiRequest({ path: ctx.path, header: ctx.get(HEADER), secret }) === "refused") {
      ctx.status = 403;
      ctx.body = SITE_ONLY_BODY;
      return;
    }
    await next();
  };
};
