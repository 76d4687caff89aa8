"use strict";

const { TWO_FACTOR } = require("./two-factor-fields");
const { sessionIdOf, updateSessionClaims } = require("./session-check");

/**
 * The password alone never opens an account with two-factor on, also when the CMS is asked
 * directly (its port is public: the admin panel), past the site's second step
 * (docs/security.md, finding 21; docs/decisions/0020-account-lifecycle.md, "Two-factor").
 *
 * - `POST /api/auth/local` and `POST /api/auth/reset-password` of a user with two-factor on mark
 *   the session Strapi just started (./session-check.js) `twoFactorPending` (in its metadata: the
 *   same access token, and a refresh of it stays pending);
 * - the JWT service refuses a pending session's token everywhere (as it refuses a bad signature:
 *   401), except where the caller asks for it with `verify(token, { allowTwoFactorPending: true })`:
 *   the account's two-factor state and code check (../strategies/two-factor-step.js);
 * - a right code sent with such a token clears the mark (`completeSecondFactor`): from then on it
 *   is a whole session. The site keeps the token of the password step for the session it starts
 *   after the code, so nothing changes there.
 */

const PENDING_CLAIM = "twoFactorPending";
const USER_UID = "plugin::users-permissions.user";

/** Whether a verified JWT payload is a password step still waiting for its second factor. */
function isPendingPayload(payload) {
  return Boolean(payload && typeof payload === "object" && payload[PENDING_CLAIM] === true);
}

/** Wraps the JWT service (after ./session-check.js, which gives the session's claims): a pending token is refused unless allowed. */
function wrapJwtService(service) {
  const verify = service.verify;
  return Object.assign(service, {
    async verify(token, options = {}) {
      const payload = await verify.call(this, token);
      if (isPendingPayload(payload) && !options?.allowTwoFactorPending) throw new Error("Invalid token.");
      return payload;
    },
  });
}

/** The right code was given with this pending token: its session becomes a whole one. */
async function completeSecondFactor(strapi, payload) {
  if (!isPendingPayload(payload) || typeof payload.sessionId !== "string") return;
  await updateSessionClaims(strapi, payload.sessionId, { [PENDING_CLAIM]: undefined });
}

/**
 * After Strapi's `callback` (password sign-in) or `resetPassword` answered a JWT: for a user with
 * two-factor on, its session is marked pending. Should the mark fail, the session is ended and
 * the answer withdrawn (never a whole session from the password alone).
 */
async function markPendingAnswer(strapi, ctx) {
  const body = ctx.body;
  const id = body && typeof body === "object" && typeof body.jwt === "string" ? body.user?.id : undefined;
  if (id === undefined || id === null) return;
  const user = await strapi.db.query(USER_UID).findOne({ where: { id }, select: ["id", TWO_FACTOR.enabled] });
  if (!user?.[TWO_FACTOR.enabled]) return;
  const sessionId = sessionIdOf(strapi, body.jwt);
  let marked = false;
  let failure;
  try {
    marked = Boolean(sessionId) && (await updateSessionClaims(strapi, sessionId, { [PENDING_CLAIM]: true }));
  } catch (error) {
    failure = error;
  }
  if (marked) return;
  ctx.body = undefined;
  if (sessionId) await strapi.sessionManager("users-permissions").revokeSessionById(String(user.id), sessionId);
  throw new Error("[two-factor] the password step's session could not be marked pending", { cause: failure });
}

/** Applies the above to the users-permissions plugin (./index.js; after extendSessionCheck). */
function extendTwoFactorSignIn(points) {
  const { strapi } = points;
  points.wrapService("jwt", (service) => wrapJwtService(service));
  points.wrapController("auth", (controller) => {
    for (const name of ["callback", "resetPassword"]) {
      const original = controller[name];
      if (typeof original !== "function") continue;
      controller[name] = async (ctx, ...rest) => {
        const result = await original.call(controller, ctx, ...rest);
        await markPendingAnswer(strapi, ctx);
        return result;
      };
    }
    return controller;
  });
}

module.exports = {
  PENDING_CLAIM,
  isPendingPayload,
  wrapJwtService,
  completeSecondFactor,
  markPendingAnswer,
  extendTwoFactorSignIn,
};
