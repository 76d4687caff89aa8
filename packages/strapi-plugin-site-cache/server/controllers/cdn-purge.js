"use strict";

const { errors } = require("@strapi/utils");

const { validatePurgeBody } = require("./validation/cdn-purge");
const { invalidBody } = require("./revalidation-on");

/**
 * What an editor reads when there is no CDN to purge (the admin hides the buttons then: GET
 * /site-cache/capabilities; a client that calls anyway gets this). How to set one up is for the
 * operator: it goes to the log, not to the editor.
 */
const NO_CDN_HERE = "There is no CDN in front of this site, so there is nothing to purge.";
const OPERATOR_HINT = {
  cms: "CDN purge is off: set CMS_CDN_PURGE_SECRET on the CMS (and the same value on the front end).",
  site: "the front end has no CDN configured (CDN_PROVIDER)",
};

/** POST /site-cache/cdn-purge: paths, tags or everything (admin::hasPermissions: purge-cdn). */
module.exports = ({ strapi }) => ({
  async purge(ctx) {
    const { value, errors: invalid } = validatePurgeBody(ctx.request.body);
    if (invalid) throw new errors.ValidationError(invalidBody(invalid), { errors: invalid });
    const cdn = strapi.plugin("site-cache").service("cdn-purge");
    if (!cdn.enabled()) {
      strapi.log.warn(`[cdn-purge] refused for admin ${ctx.state.user.email}: ${OPERATOR_HINT.cms}`);
      return ctx.serviceUnavailable(NO_CDN_HERE);
    }

    const result = await cdn.purge(value);
    strapi.log.info(`[cdn-purge] by admin ${ctx.state.user.email}: ${JSON.stringify(value)} → ${result.status}`);
    if (result.status === 200) return ctx.send({ data: result.body });
    // 501: the site has no CDN; 502: it refused or could not be reached (forward.js says which).
    if (result.status === 501) {
      strapi.log.warn(`[cdn-purge] ${OPERATOR_HINT.site}: ${result.body?.error ?? "501"}`);
      return ctx.notImplemented(NO_CDN_HERE);
    }
    return ctx.badGateway(result.body?.error ?? "CDN purge failed", result.body ?? {});
  },
});
