"use strict";

const { errors } = require("@strapi/utils");

const { PERMISSIONS } = require("../admin-actions");
const { validateManualBody } = require("./validation/manual-revalidation");
const { invalidBody, revalidationOn } = require("./revalidation-on");

/** POST /site-cache/revalidate: the admin's "Revalidate cache" (admin::hasPermissions: revalidate). */
module.exports = ({ strapi }) => ({
  async revalidate(ctx) {
    const admin = ctx.state.user;
    const defaultUid = strapi.plugin("site-cache").service("page-hierarchy").settings()?.uid ?? null;
    const { value, errors: invalid } = validateManualBody(ctx.request.body, { defaultUid });
    if (invalid) throw new errors.ValidationError(invalidBody(invalid), { errors: invalid });
    if (value.locale) {
      const known = await strapi.plugin("i18n").service("locales").findByCode(value.locale);
      if (!known)
        throw new errors.ValidationError(`Invalid body: locale "${value.locale}" is not a locale of this CMS.`, {
          errors: [{ path: ["locale"], message: "unknown locale" }],
        });
    }

    const service = revalidationOn(strapi, ctx);
    if (!service) return;
    // A takedown (expire) is purged from the CDN after the site's 200, for admins who may purge it.
    const purgeCdn = value.expire === true && ctx.state.userAbility.can(PERMISSIONS.purgeCdn);
    const result = await service.revalidate(value, { purgeCdn });
    strapi.log.info(
      `[revalidate] manual, by admin ${admin.email}: ${JSON.stringify(result.payload)} → ` +
        (result.ok ? "accepted" : "NOT accepted"),
    );
    ctx.status = result.ok ? 200 : 502;
    ctx.body = {
      data: {
        accepted: Boolean(result.ok),
        payload: result.payload,
        status: result.status ?? null,
        attempts: result.attempts ?? 0,
        response: result.body ?? null,
        // The CDN purge after a takedown: { request, status, body }, null (none to make), or why not.
        ...(value.expire === true
          ? { purge: purgeCdn ? (result.purge ?? null) : { skipped: `needs the permission ${PERMISSIONS.purgeCdn}` } }
          : {}),
        ...(result.ok ? {} : { error: result.error ?? result.reason, recorded: result.sent === true }),
      },
    };
  },
});
