"use strict";

const { errors } = require("@strapi/utils");

const { USER_UID } = require("./extension-points");

/**
 * Every refusal of the users-permissions routes the site calls carries a `details.code` of this
 * plugin's (docs/decisions/0042-account-refusal-codes.md), so the site never reads Strapi's English
 * (app/lib/auth/cms-users.server.ts matches codes only). Strapi's own refusals have no code; the
 * wrapped controllers below tag them by what the plugin can check itself (the user's stored state,
 * the request, the users-permissions settings), never by their message:
 *
 * - `POST /api/auth/local`: INVALID_CREDENTIALS for a ValidationError (no such user, no password,
 *   a wrong password: Strapi throws that class and only that one before the password is known to
 *   be right); BLOCKED or EMAIL_NOT_CONFIRMED when the password was right (another refusal) and
 *   the user is in that state. A refused right password is never told to someone without it.
 * - `POST /api/auth/local/register`: REGISTRATION_CLOSED (the setting is off), INVALID_REGISTRATION
 *   (the body was refused), EMAIL_TAKEN (a user holds the address or name, as Strapi counts them).
 * - `POST /api/auth/reset-password`: INVALID_RESET_CODE (no user holds the code).
 * - `POST /api/auth/change-password`: INVALID_PASSWORD (the current password is wrong; checked
 *   again, on a refusal only), SAME_PASSWORD.
 *
 * A refusal that already has a code (the plugin's own: ./reset-link-expiry.js, ./sign-in-timing.js)
 * keeps it; one that fits none of the above goes on without a code, and the site answers it with
 * its generic refusal. Wrapped last (./index.js), so it sees what every other wrapper threw.
 */

/** Whether `error` is a refusal Strapi answers with its details (an ApplicationError or a subclass). */
const isRefusal = (error) => error instanceof errors.ApplicationError;
const isBodyRefusal = (error) => error instanceof errors.ValidationError;
const text = (value) => (typeof value === "string" && value !== "" ? value : undefined);

async function advancedSettings(strapi) {
  return (await strapi.store({ type: "plugin", name: "users-permissions" }).get({ key: "advanced" })) ?? {};
}

async function emailSignInEnabled(strapi) {
  const grant = await strapi.store({ type: "plugin", name: "users-permissions" }).get({ key: "grant" });
  return grant?.email?.enabled === true;
}

/** Sign-in: the code for a refusal of `POST /api/auth/local`, or undefined. */
async function signInCode(strapi, ctx, error) {
  if ((ctx.params?.provider ?? "local") !== "local") return undefined;
  if (isBodyRefusal(error)) return "INVALID_CREDENTIALS";
  const identifier = text(ctx.request?.body?.identifier);
  if (!identifier || !(await emailSignInEnabled(strapi))) return undefined;
  const user = await strapi.db.query(USER_UID).findOne({
    where: { provider: "local", $or: [{ email: identifier.toLowerCase() }, { username: identifier }] },
    select: ["id", "confirmed", "blocked"],
  });
  if (!user) return undefined;
  if ((await advancedSettings(strapi)).email_confirmation && user.confirmed !== true) return "EMAIL_NOT_CONFIRMED";
  if (user.blocked === true) return "BLOCKED";
  return undefined;
}

/** Registration: the code for a refusal of `POST /api/auth/local/register`, or undefined. */
async function registerCode(strapi, ctx, error) {
  const settings = await advancedSettings(strapi);
  if (!settings.allow_register) return "REGISTRATION_CLOSED";
  if (isBodyRefusal(error)) return "INVALID_REGISTRATION";
  const email = text(ctx.request?.body?.email);
  const username = text(ctx.request?.body?.username);
  if (!email || !username) return undefined;
  // Strapi's own count (controllers/auth.js register): by address or name, local users unless unique_email.
  const identifiers = [
    { email: email.toLowerCase() },
    { username: email.toLowerCase() },
    { username },
    { email: username },
  ];
  const where = { $or: identifiers, ...(settings.unique_email ? {} : { provider: "local" }) };
  return (await strapi.db.query(USER_UID).count({ where })) > 0 ? "EMAIL_TAKEN" : undefined;
}

/** Reset: the code for a refusal of `POST /api/auth/reset-password`, or undefined. */
async function resetCode(strapi, ctx) {
  const code = text(ctx.request?.body?.code);
  if (!code) return undefined;
  const holder = await strapi.db.query(USER_UID).findOne({ where: { resetPasswordToken: code }, select: ["id"] });
  return holder ? undefined : "INVALID_RESET_CODE";
}

/** Change of password: the code for a refusal of `POST /api/auth/change-password`, or undefined. */
async function changePasswordCode(strapi, ctx, error) {
  const id = ctx.state?.user?.id;
  const current = text(ctx.request?.body?.currentPassword);
  const next = text(ctx.request?.body?.password);
  if (!isBodyRefusal(error) || id === undefined || !current || !next) return undefined;
  const user = await strapi.db.query(USER_UID).findOne({ where: { id }, select: ["id", "password"] });
  if (!user?.password) return undefined;
  const users = strapi.plugin("users-permissions").service("user");
  if (!(await users.validatePassword(current, user.password))) return "INVALID_PASSWORD";
  return current === next ? "SAME_PASSWORD" : undefined;
}

const CODE_OF = {
  callback: signInCode,
  register: registerCode,
  resetPassword: resetCode,
  changePassword: changePasswordCode,
};

/** Runs `action`; a refusal it throws without a code leaves with the code `codeOf` finds, if any. */
async function withRefusalCode(action, codeOf) {
  try {
    return await action();
  } catch (error) {
    if (!isRefusal(error) || error.details?.code) throw error;
    const code = await codeOf(error);
    if (code) error.details = { ...error.details, code };
    throw error;
  }
}

/** Wraps the auth controller's actions the site calls (./index.js: last of the controller wrappers). */
function extendRefusalCodes(points) {
  const { strapi } = points;
  points.wrapController("auth", (controller) => {
    for (const [name, codeOf] of Object.entries(CODE_OF)) {
      const original = controller[name];
      if (typeof original !== "function") continue;
      controller[name] = (ctx, ...rest) =>
        withRefusalCode(
          () => original.call(controller, ctx, ...rest),
          (error) => codeOf(strapi, ctx, error),
        );
    }
    return controller;
  });
}

module.exports = { extendRefusalCodes, withRefusalCode, signInCode, registerCode, resetCode, changePasswordCode };
