"use strict";

const { errors } = require("@strapi/utils");

const { validatePurgeBody } = require("./validation/cdn-purge");
const { invalidBody } = require("./revalidation-on");

/** POST /site-cache/cdn-purge: paths, tags or everything (admin::hasPermissions: purge-cdn). */
module.exports = ({ strapi }) => ({
  async purge(ctx) {
    const { value, errors: invalid } = validatePurgeBody(ctx.request.body);
    if (invalid) throw new errors.ValidationError(invalidBody(invalid), { errors: invalid });
    const cdn = strapi.plugin("site-cache").service("cdn-purge");
    if (!cdn.enabled())
      return ctx.serviceUnavailable(
        "CDN purge is off: set CMS_CDN_PURGE_SECRET on the CMS (and the same value on the front end).",
      );

    const result = await cdn.purge(value);
    strapi.log.info(`[cdn-purge] by admin ${ctx.state.user.email}: ${JSON.stringify(value)} → ${result.status}`);
    if (result.status === 200) return ctx.send({ data: result.body });
    // 501: the site has no CDN; 502: it refused or could not be reached (forward.js says which).
    const message = result.body?.error ?? "CDN purge failed";
    return result.status === 501
      ? ctx.notImplemented(message, result.body ?? {})
      : ctx.badGateway(message, result.body ?? {});
  },
});
