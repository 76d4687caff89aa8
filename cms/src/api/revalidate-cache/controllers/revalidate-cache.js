"use strict";

const { PERMISSIONS, requireAdmin, revalidationOn, sendError } = require("../../../revalidation");
const { userCan } = require("../../../revalidation/admin-permission");
const { validateManualBody } = require("../../../revalidation/manual-body");

module.exports = ({ strapi }) => ({
  async revalidate(ctx) {
    const auth = await requireAdmin(strapi, ctx, PERMISSIONS.revalidate);
    if (auth.status !== 200) return sendError(ctx, auth.status, auth.message);

    const { value, errors } = validateManualBody(ctx.request.body);
    if (errors)
      return sendError(
        ctx,
        400,
        `Invalid body: ${errors.map((e) => `${e.path.join(".") || "(body)"} ${e.message}`).join("; ")}`,
        { errors },
      );
    if (value.locale) {
      const known = await strapi.plugin("i18n").service("locales").findByCode(value.locale);
      if (!known)
        return sendError(ctx, 400, `Invalid body: locale "${value.locale}" is not a locale of this CMS.`, {
          errors: [{ path: ["locale"], message: "unknown locale" }],
        });
    }

    const service = revalidationOn(ctx);
    if (!service) return;
    // A takedown (expire) is purged from the CDN after the site's 200, for admins who may purge it.
    const purgeCdn = value.expire === true && (await userCan(strapi, auth.user, PERMISSIONS.purgeCdn));
    const result = await service.revalidate(value, { purgeCdn });
    strapi.log.info(
      `[revalidate] manual, by admin ${auth.user.email}: ${JSON.stringify(result.payload)} → ` +
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
