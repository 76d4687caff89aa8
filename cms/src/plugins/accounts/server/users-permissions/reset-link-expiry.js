"use strict";

const { errors } = require("@strapi/utils");

/**
 * Password reset links expire (docs/decisions/0020-account-lifecycle.md, "Reset links expire").
 *
 * users-permissions' reset codes never expire: a link in an old mail, a forwarded mail or a
 * mailbox read years later still set a new password. Here the user gets a private
 * `resetPasswordIssuedAt`, set by the database whenever a reset code is written (forgot-password)
 * and cleared with it; `POST /api/auth/reset-password` with a code older than
 * the plugin's `resetLinkTtlSeconds` (CMS_RESET_LINK_TTL_SECONDS, default an hour) clears the code and
 * answers 400 "Reset link expired" (`details.code` RESET_LINK_EXPIRED), changing nothing else. A code written before this existed has no time: expired too.
 */

const FIELD = "resetPasswordIssuedAt";
const USER_UID = "plugin::users-permissions.user";
/** The refusal's message and code (the site maps the code: app/lib/auth/cms-users.server.ts). */
const EXPIRED_MESSAGE = "Reset link expired";
const EXPIRED_CODE = "RESET_LINK_EXPIRED";

const ATTRIBUTE = { type: "datetime", private: true, configurable: false, writable: false, visible: false };

/** A user write made right (in place): a caller's value dropped; the time set or cleared with the code. */
function stampResetCode(data, now = new Date()) {
  if (!data || typeof data !== "object" || Array.isArray(data)) return;
  delete data[FIELD];
  if (!Object.hasOwn(data, "resetPasswordToken")) return;
  data[FIELD] = typeof data.resetPasswordToken === "string" && data.resetPasswordToken !== "" ? now : null;
}

/** Whether a code written at `issuedAt` (a Date, a string, or nothing) no longer works at `nowMs`. */
function isExpired(issuedAt, ttlMs, nowMs = Date.now()) {
  const issuedMs = issuedAt ? new Date(issuedAt).getTime() : Number.NaN;
  return !Number.isFinite(issuedMs) || nowMs - issuedMs >= ttlMs;
}

/**
 * Before Strapi's resetPassword: a known code past its time is cleared and refused. An unknown code
 * is left to Strapi ("Incorrect code provided"), as is everything else it checks.
 */
async function refuseExpiredCode(strapi, ctx, ttlMs) {
  const code = ctx.request?.body?.code;
  if (typeof code !== "string" || code === "") return;
  const users = strapi.db.query(USER_UID);
  const user = await users.findOne({ where: { resetPasswordToken: code }, select: ["id", FIELD] });
  if (!user || !isExpired(user[FIELD], ttlMs)) return;
  await users.update({ where: { id: user.id }, data: { resetPasswordToken: null } });
  throw new errors.ValidationError(EXPIRED_MESSAGE, { code: EXPIRED_CODE });
}

/**
 * Adds the field, its write guard and the check to the users-permissions plugin (./index.js).
 * `ttlMs`: the plugin's resetLinkTtlSeconds, in ms.
 */
function extendResetLinkExpiry(points, { ttlMs }) {
  points.addUserAttributes({ [FIELD]: ATTRIBUTE });
  points.guardUserWrites((data) => stampResetCode(data));
  points.wrapController("auth", (controller) => {
    const resetPassword = controller.resetPassword;
    controller.resetPassword = async (ctx) => {
      await refuseExpiredCode(points.strapi, ctx, ttlMs);
      return resetPassword.call(controller, ctx);
    };
    return controller;
  });
}

module.exports = {
  FIELD,
  EXPIRED_MESSAGE,
  EXPIRED_CODE,
  extendResetLinkExpiry,
  isExpired,
  refuseExpiredCode,
  stampResetCode,
};
