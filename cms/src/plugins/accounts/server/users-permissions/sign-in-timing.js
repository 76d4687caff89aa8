"use strict";

const crypto = require("node:crypto");
const { errors } = require("@strapi/utils");

const { ORIGIN, sessionIdOf } = require("./session-check");

/**
 * A password sign-in takes as long for an address without an account as for one with it.
 *
 * users-permissions' `POST /api/auth/local` answers "Invalid identifier or password" at once
 * when no user matches the identifier, or the user has no password (made by an OAuth
 * sign-in), but only after a bcrypt comparison (tens of milliseconds) when one does: the
 * time alone told a stranger which addresses have an account, whatever the answer said.
 * Here, before Strapi's own callback runs, an identifier without a password to check gets a
 * bcrypt comparison against a hash of the same cost (made once, at the first sign-in, by the
 * plugin's own hashing, so a configured `encryption.rounds` is followed). Strapi's callback
 * then answers as before. Cost: one user lookup per password sign-in.
 *
 * The same lookup closes a race (docs/security.md, finding 35): Strapi's callback compares the
 * password with the hash it read, then starts the session; a password change or reset that
 * writes the new hash and ends every session in between would leave that session alive. So the
 * hash is read again once Strapi has answered a session: if it is not the one read before, the
 * new session is ended and the answer is a wrong password. (A change writes the hash before it
 * ends the sessions: a change whose hash write comes after the second read ends this session too.)
 */

const USER_UID = "plugin::users-permissions.user";

/** Whether the request is a password sign-in with the fields Strapi checks (else Strapi answers 400 at once, alike for all). */
function passwordSignIn(ctx) {
  const provider = ctx.params?.provider ?? "local";
  const body = ctx.request?.body;
  if (provider !== "local" || !body || typeof body !== "object") return undefined;
  const { identifier, password } = body;
  return typeof identifier === "string" && identifier && typeof password === "string" && password
    ? { identifier, password }
    : undefined;
}

/**
 * The comparison Strapi skips for an identifier without a password: against `dummyHash()`
 * when no local user with a password matches it (the same lookup Strapi's callback makes).
 * Returns the user found (`{ id, password }`), or null.
 */
async function spendPasswordCheck(strapi, ctx, dummyHash) {
  const attempt = passwordSignIn(ctx);
  if (!attempt) return null;
  const user = await strapi.db.query(USER_UID).findOne({
    where: { provider: "local", $or: [{ email: attempt.identifier.toLowerCase() }, { username: attempt.identifier }] },
    select: ["id", "password"],
  });
  if (user?.password) return user;
  await strapi
    .plugin("users-permissions")
    .service("user")
    .validatePassword(attempt.password, await dummyHash());
  return user ?? null;
}

/**
 * After Strapi's callback answered a session: unless the user's hash is still the one read
 * before it (`before`), the session is ended and the sign-in refused as a wrong password.
 */
async function withdrawIfPasswordChanged(strapi, ctx, before) {
  const body = ctx.body;
  if (!body || typeof body !== "object" || typeof body.jwt !== "string") return;
  const id = body.user?.id;
  const now =
    id === undefined || id === null
      ? null
      : await strapi.db.query(USER_UID).findOne({ where: { id }, select: ["id", "password"] });
  const unchanged =
    before?.password && now?.password && String(before.id) === String(now.id) && before.password === now.password;
  if (unchanged) return;
  const sessionId = sessionIdOf(strapi, body.jwt);
  if (sessionId && id !== undefined && id !== null) {
    await strapi.sessionManager(ORIGIN).revokeSessionById(String(id), sessionId);
  }
  ctx.body = undefined;
  throw new errors.ValidationError("Invalid identifier or password", { code: "INVALID_CREDENTIALS" });
}

/**
 * Wraps the plugin's auth controller: `callback` (POST /api/auth/local) spends the same time for
 * every identifier, and never answers a session whose password changed meanwhile.
 */
function extendSignInTiming(points) {
  const { strapi } = points;
  let hash;
  const dummyHash = () =>
    (hash ??= strapi
      .plugin("users-permissions")
      .service("user")
      .ensureHashedPasswords({ password: crypto.randomBytes(24).toString("base64") })
      .then((values) => values.password));
  points.wrapController("auth", (controller) => {
    const callback = controller.callback;
    controller.callback = async (ctx) => {
      const before = await spendPasswordCheck(strapi, ctx, dummyHash);
      const result = await callback.call(controller, ctx);
      if (passwordSignIn(ctx)) await withdrawIfPasswordChanged(strapi, ctx, before);
      return result;
    };
    return controller;
  });
}

module.exports = { extendSignInTiming, spendPasswordCheck, withdrawIfPasswordChanged };
