"use strict";

const { TWO_FACTOR } = require("./two-factor-fields");
const { ISSUED_AT_MS } = require("./sessions-valid-after");

/**
 * The password alone never opens an account with two-factor on, also when the CMS is asked
 * directly (its port is public: the admin panel), past the site's second step
 * (docs/security.md, finding 21; docs/decisions/0020-account-lifecycle.md, "Two-factor").
 *
 * - `POST /api/auth/local` and `POST /api/auth/reset-password` of a user with two-factor on answer
 *   a JWT marked `twoFactorPending` instead of Strapi's;
 * - the JWT service refuses such a token everywhere (as it refuses a bad signature: 401), except
 *   where the caller asks for it with `verify(token, { allowTwoFactorPending: true })`: the
 *   account's two-factor state and code check (../strategies/two-factor-step.js);
 * - a right code sent with such a token records it (its `iatMs`, until its `exp`) on the user's
 *   private `twoFactorVerifiedTokens`: from then on it is a whole session. The site keeps the
 *   token of the password step for the session it starts after the code, so nothing changes there.
 */

const PENDING_CLAIM = "twoFactorPending";
/** The verified tokens a user keeps (the oldest go first; each ends with its JWT anyway). */
const MAX_VERIFIED_TOKENS = 50;
const USER_UID = "plugin::users-permissions.user";

/** Whether a verified JWT payload is a password step still waiting for its second factor. */
function isPendingPayload(payload) {
  return Boolean(payload && typeof payload === "object" && payload[PENDING_CLAIM] === true);
}

/** A stored list of verified tokens, read defensively: `{ iatMs, exp }` entries only. */
function verifiedList(value) {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (entry) => entry && typeof entry === "object" && Number.isFinite(entry.iatMs) && Number.isFinite(entry.exp),
  );
}

/** Whether this pending token's second factor was given (its entry is in the stored list). */
function isVerifiedToken(payload, stored) {
  const issued = payload && typeof payload === "object" ? payload[ISSUED_AT_MS] : undefined;
  return typeof issued === "number" && verifiedList(stored).some((entry) => entry.iatMs === issued);
}

/** The stored list with this token added (and the expired ones, and the oldest above the cap, dropped). */
function verifiedTokensWith(payload, stored, nowMs) {
  const live = verifiedList(stored).filter((entry) => entry.exp * 1000 > nowMs);
  const issued = payload?.[ISSUED_AT_MS];
  if (typeof issued !== "number" || live.some((entry) => entry.iatMs === issued)) return live;
  const exp = Number.isFinite(payload.exp) ? payload.exp : Math.ceil(nowMs / 1000) + 30 * 24 * 60 * 60;
  return [...live, { iatMs: issued, exp }].slice(-MAX_VERIFIED_TOKENS);
}

/** Wraps the JWT service (after ./sessions-valid-after.js): a pending token is refused unless verified or allowed. */
function wrapJwtService(service, { strapi }) {
  const verify = service.verify;
  return Object.assign(service, {
    async verify(token, options = {}) {
      const payload = await verify.call(this, token);
      if (isPendingPayload(payload) && !options.allowTwoFactorPending) {
        const user = await strapi.db
          .query(USER_UID)
          .findOne({ where: { id: payload.id }, select: ["id", TWO_FACTOR.verifiedTokens] });
        if (!user || !isVerifiedToken(payload, user[TWO_FACTOR.verifiedTokens])) throw new Error("Invalid token.");
      }
      return payload;
    },
  });
}

/**
 * After Strapi's `callback` (password sign-in) or `resetPassword` answered a JWT: for a user with
 * two-factor on, a pending one instead.
 */
async function markPendingAnswer(strapi, ctx) {
  const body = ctx.body;
  const id = body && typeof body === "object" && typeof body.jwt === "string" ? body.user?.id : undefined;
  if (id === undefined || id === null) return;
  const user = await strapi.db.query(USER_UID).findOne({ where: { id }, select: ["id", TWO_FACTOR.enabled] });
  if (!user?.[TWO_FACTOR.enabled]) return;
  body.jwt = strapi
    .plugin("users-permissions")
    .service("jwt")
    .issue({ id: user.id, [PENDING_CLAIM]: true });
}

/** Applies the above to the users-permissions plugin (./index.js; after extendUsersPermissions). */
function extendTwoFactorSignIn(points) {
  const { strapi } = points;
  points.wrapService("jwt", (service) => wrapJwtService(service, { strapi }));
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
  MAX_VERIFIED_TOKENS,
  isPendingPayload,
  verifiedList,
  isVerifiedToken,
  verifiedTokensWith,
  wrapJwtService,
  markPendingAnswer,
  extendTwoFactorSignIn,
};
