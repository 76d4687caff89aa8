"use strict";

const { errors } = require("@strapi/utils");

const { addLifecycles } = require("./sessions-valid-after");

/**
 * Password reset links expire (docs/decisions/0020-account-lifecycle.md, "Reset links expire").
 *
 * users-permissions' reset codes never expire: a link in an old mail, a forwarded mail or a
 * mailbox read years later still set a new password. Here the user gets a private
 * `resetPasswordIssuedAt`, set by the database whenever a reset code is written (forgot-password)
 * and cleared with it; `POST /api/auth/reset-password` with a code older than
 * `CMS_RESET_LINK_TTL_SECONDS` (default an hour) clears the code and answers 400 "Reset link
 * expired", changing nothing else. A code written before this existed has no time: expired too.
 */

const FIELD = "resetPasswordIssuedAt";
const USER_UID = "plugin::users-permissions.user";
const DEFAULT_TTL_SECONDS = 60 * 60;
/** Strapi's message for it, which the site maps to RESET_LINK_EXPIRED (app/lib/auth/cms-users.server.ts). */
const EXPIRED_MESSAGE = "Reset link expired";

const ATTRIBUTE = { type: "datetime", private: true, configurable: false, writable: false, visible: false };

/** The link's lifetime in ms, from `CMS_RESET_LINK_TTL_SECONDS` (a whole number of seconds, 0 allowed). */
function resetLinkTtlMs(env = process.env) {
  const raw = env.CMS_RESET_LINK_TTL_SECONDS;
  if (raw === undefined || raw === "") return DEFAULT_TTL_SECONDS * 1000;
  if (!/^\d{1,9}$/.test(raw))
    throw new Error(`CMS_RESET_LINK_TTL_SECONDS must be a whole number of seconds, not "${raw}"`);
  return Number(raw) * 1000;
}

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
  throw new errors.ValidationError(EXPIRED_MESSAGE);
}

/** Adds the field, its lifecycle and the check to the users-permissions plugin (./strapi-server.js). */
function extendResetLinkExpiry(plugin, env = process.env) {
  const ttlMs = resetLinkTtlMs(env);
  const user = plugin.contentTypes.user;
  user.schema.attributes[FIELD] = { ...ATTRIBUTE };
  const one = (event) => stampResetCode(event.params?.data);
  const many = (event) => {
    const data = event.params?.data;
    for (const item of Array.isArray(data) ? data : [data]) stampResetCode(item);
  };
  addLifecycles(user, { beforeCreate: one, beforeUpdate: one, beforeCreateMany: many, beforeUpdateMany: many });
  const createAuthController = plugin.controllers.auth;
  plugin.controllers.auth = (context) => {
    const controller = createAuthController(context);
    const resetPassword = controller.resetPassword;
    controller.resetPassword = async (ctx) => {
      await refuseExpiredCode(context.strapi, ctx, ttlMs);
      return resetPassword.call(controller, ctx);
    };
    return controller;
  };
  return plugin;
}

module.exports = {
  FIELD,
  EXPIRED_MESSAGE,
  extendResetLinkExpiry,
  isExpired,
  refuseExpiredCode,
  resetLinkTtlMs,
  stampResetCode,
};
