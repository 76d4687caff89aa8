"use strict";

const crypto = require("node:crypto");

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
 */
async function spendPasswordCheck(strapi, ctx, dummyHash) {
  const attempt = passwordSignIn(ctx);
  if (!attempt) return;
  const user = await strapi.db.query(USER_UID).findOne({
    where: { provider: "local", $or: [{ email: attempt.identifier.toLowerCase() }, { username: attempt.identifier }] },
    select: ["id", "password"],
  });
  if (user?.password) return;
  await strapi
    .plugin("users-permissions")
    .service("user")
    .validatePassword(attempt.password, await dummyHash());
}

/** Wraps the plugin's auth controller: `callback` (POST /api/auth/local) spends the same time for every identifier. */
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
      await spendPasswordCheck(strapi, ctx, dummyHash);
      return callback.call(controller, ctx);
    };
    return controller;
  });
}

module.exports = { extendSignInTiming, spendPasswordCheck };
