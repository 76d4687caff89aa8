"use strict";

const { HEADER, SITE_ONLY_CODE, SITE_ONLY_MESSAGE, UNSET_WARNING, checkAccountApiRequest } = require("./rules");
const { forbidden } = require("../../utils/refusals");

/**
 * Global Koa middleware (cms/config/middlewares.js, `plugin::accounts.account-api-guard`): the
 * account API guard of ./rules.js. It runs before the body is parsed and before the route's own
 * rate limit, so a refused request costs nothing; after strapi::errors, which answers its
 * refusal in Strapi's error shape. The secret is the plugin's accountApiSecret
 * (CMS_ACCOUNT_API_SECRET), read once, at start; unset, the CMS logs one warning and nothing changes.
 */
module.exports = (_config, { strapi }) => {
  const secret = strapi.config.get("plugin::accounts").accountApiSecret || undefined;
  if (secret === undefined) {
    strapi.log.warn(UNSET_WARNING);
    return (_ctx, next) => next();
  }
  return async (ctx, next) => {
    if (checkAccountApiRequest({ path: ctx.path, header: ctx.get(HEADER), secret }) === "refused") {
      throw forbidden(SITE_ONLY_MESSAGE, SITE_ONLY_CODE);
    }
    await next();
  };
};
