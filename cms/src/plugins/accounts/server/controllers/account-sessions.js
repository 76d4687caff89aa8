"use strict";

const { callerOf } = require("../lib/caller");
const { checkUsername } = require("../lib/username");
const { reauthentication, authAtOf, freshSignInMs } = require("../lib/reauthentication");
const {
  EMAIL_CHANGE_TTL_MS,
  checkNewEmail,
  checkToken,
  checkLocale,
  newToken,
  hashToken,
  pendingState,
  askedBeforeSessionsEnded,
  confirmLink,
  emailChangeMails,
} = require("../lib/email-change");
const { normaliseClientUrl } = require("../../../auth-settings/settings");
const {
  END_SESSIONS,
  FIELD: SESSIONS_VALID_AFTER_FIELD,
  REVOKED_FIELD,
  revokeTokenWrite,
  validAfterMs,
} = require("../../../extensions/users-permissions/sessions-valid-after");
const {
  TOKEN_HASH_FIELD,
  NEW_EMAIL_FIELD,
  EXPIRES_FIELD,
  pendingEmailChangeWrite,
} = require("../../../extensions/users-permissions/email-change-fields");

const USER_UID = "plugin::users-permissions.user";

/** A refusal in Strapi's error shape, with `details.reason` for the front end to map. */
function refuse(ctx, status, name, message, reason) {
  return Object.assign(ctx, { status, body: { data: null, error: { status, name, message, details: { reason } } } });
}

module.exports = ({ strapi }) => {
  const users = () => strapi.db.query(USER_UID);
  const caller = (ctx) =>
    callerOf(ctx, {
      getToken: (context) => strapi.plugin("users-permissions").service("jwt").getToken(context),
      findUser: (id) => users().findOne({ where: { id }, select: ["id", "blocked", REVOKED_FIELD] }),
    });

  /** Another user whose email or username is this address (Strapi signs in by either). */
  const otherUserWith = (email, userId) =>
    users().findOne({
      where: { $or: [{ email: { $eqi: email } }, { username: { $eqi: email } }], id: { $ne: userId } },
      select: ["id"],
    });

  /**
   * Re-authentication for a sensitive change: null when it is given, else `{ reason, message }`.
   * The password for a user that has one; for one without, a provider sign-in of the last
   * minutes (the JWT's authAtMs, lib/reauthentication.js).
   */
  async function reauthenticationFailure(userId, payload, password) {
    const { password: hash } = await users().findOne({ where: { id: userId }, select: ["id", "password"] });
    const needs = reauthentication({
      hasPassword: Boolean(hash),
      authAtMs: authAtOf(payload),
      nowMs: Date.now(),
      windowMs: freshSignInMs(),
    });
    if (needs === "stale") return { reason: "sign_in_again", message: "Sign in again first" };
    if (needs === "fresh") return null;
    if (typeof password !== "string" || password.length === 0) {
      return { reason: "password_required", message: "Password required" };
    }
    const userService = strapi.plugin("users-permissions").service("user");
    if (!(await userService.validatePassword(password, hash)))
      return { reason: "wrong_password", message: "Wrong password" };
    return null;
  }

  /** Sends the mails through the email plugin; a failure is logged (the answer must not tell which mails went). */
  async function sendMails(mails) {
    const email = strapi.plugin("email").service("email");
    const results = await Promise.allSettled(mails.map((mail) => email.send(mail)));
    for (const result of results) {
      if (result.status === "rejected") strapi.log.error(`[account-sessions] a mail was not sent: ${result.reason}`);
    }
  }

  return {
    async endThis(ctx) {
      const { answer, payload, user } = await caller(ctx);
      if (answer) return Object.assign(ctx, answer);
      // The user's lifecycle (sessions-valid-after.js) turns the markers into the private fields.
      await users().update({
        where: { id: user.id },
        data: revokeTokenWrite(payload, user[REVOKED_FIELD], Date.now()),
      });
      ctx.body = { ok: true };
    },

    async changeUsername(ctx) {
      const { answer, user } = await caller(ctx);
      if (answer) return Object.assign(ctx, answer);
      const { username, error } = checkUsername(ctx.request.body?.username);
      if (error) return refuse(ctx, 400, "ValidationError", error, "invalid");
      const taken = await users().findOne({
        where: { $or: [{ username: { $eqi: username } }, { email: { $eqi: username } }], id: { $ne: user.id } },
      });
      if (taken) return refuse(ctx, 409, "ConflictError", "Username already taken", "taken");
      await users().update({ where: { id: user.id }, data: { username } });
      ctx.body = { ok: true, username };
    },

    async deleteAccount(ctx) {
      const { answer, payload, user } = await caller(ctx);
      if (answer) return Object.assign(ctx, answer);
      const failed = await reauthenticationFailure(user.id, payload, ctx.request.body?.password);
      if (failed) return refuse(ctx, 400, "ValidationError", failed.message, failed.reason);
      await strapi.db.query("api::oauth-identity.oauth-identity").deleteMany({ where: { user: { id: user.id } } });
      await users().delete({ where: { id: user.id } });
      ctx.body = { ok: true };
    },

    /**
     * Asks for a change of the caller's email (body `{ email, password?, locale? }`), after the
     * same re-authentication as deletion. The same answer whether the new address is free or
     * taken; only when it is free a pending change is stored (the token's hash, the address, an
     * expiry) and the new address gets the link. The old address is told in both cases.
     */
    async requestEmailChange(ctx) {
      const { answer, payload, user } = await caller(ctx);
      if (answer) return Object.assign(ctx, answer);
      const body = ctx.request.body ?? {};
      const { email: newEmail, error } = checkNewEmail(body.email);
      if (error) return refuse(ctx, 400, "ValidationError", error, "invalid_email");
      const { email: oldEmail } = await users().findOne({ where: { id: user.id }, select: ["id", "email"] });
      if (String(oldEmail).toLowerCase() === newEmail) {
        return refuse(ctx, 400, "ValidationError", "This is already the account's email address", "same_email");
      }
      const failed = await reauthenticationFailure(user.id, payload, body.password);
      if (failed) return refuse(ctx, 400, "ValidationError", failed.message, failed.reason);
      const taken = Boolean(await otherUserWith(newEmail, user.id));
      const clientUrl = normaliseClientUrl(process.env.CLIENT_URL);
      let link = null;
      if (!taken) {
        const { token, tokenHash } = newToken();
        const pending = { tokenHash, email: newEmail, expiresAt: Date.now() + EMAIL_CHANGE_TTL_MS };
        await users().update({ where: { id: user.id }, data: pendingEmailChangeWrite(pending) });
        link = confirmLink(clientUrl, token, checkLocale(body.locale));
      }
      const mails = emailChangeMails({ siteName: process.env.SITE_NAME, clientUrl, oldEmail, newEmail, link, taken });
      await sendMails(mails);
      ctx.body = { ok: true };
    },

    /**
     * Confirms a change with the token of the mail's link (body `{ token }`): the email changes
     * (and counts as confirmed), the token is used up, every session of the user ends. A caller
     * that sends a valid JWT of the same user gets a new JWT (its session is replaced: ASVS
     * 7.2.4); without one (another browser) the change is made all the same.
     */
    async confirmEmailChange(ctx) {
      const token = checkToken(ctx.request.body?.token);
      const invalid = () =>
        refuse(ctx, 400, "ValidationError", "This link is invalid or was already used", "invalid_token");
      if (!token) return invalid();
      // Checked before the change, which ends every JWT the user has.
      const signedIn = ctx.request.header.authorization ? await caller(ctx) : null;
      const callerPayload = signedIn && !signedIn.answer ? signedIn.payload : null;
      const outcome = await strapi.db.transaction(async () => {
        const found = await users().findOne({
          where: { [TOKEN_HASH_FIELD]: hashToken(token) },
          select: ["id", "email", "username", "blocked", NEW_EMAIL_FIELD, EXPIRES_FIELD, SESSIONS_VALID_AFTER_FIELD],
        });
        if (!found || found.blocked || !found[NEW_EMAIL_FIELD]) return { reason: "invalid_token" };
        const clear = () => users().update({ where: { id: found.id }, data: pendingEmailChangeWrite(null) });
        if (pendingState(found[EXPIRES_FIELD], Date.now()) === "expired") {
          await clear();
          return { reason: "expired" };
        }
        // Asked by a session that has been ended since (docs/security.md, finding 23): void.
        if (askedBeforeSessionsEnded(found[EXPIRES_FIELD], validAfterMs(found[SESSIONS_VALID_AFTER_FIELD]))) {
          await clear();
          return { reason: "invalid_token" };
        }
        const newEmail = found[NEW_EMAIL_FIELD];
        if (await otherUserWith(newEmail, found.id)) {
          await clear();
          return { reason: "taken" };
        }
        // A reset or confirmation link mailed to the old address before must not open the account
        // after it has moved away from that mailbox (docs/security.md, finding 22).
        const data = {
          email: newEmail,
          confirmed: true,
          resetPasswordToken: null,
          confirmationToken: null,
          [END_SESSIONS]: true,
          ...pendingEmailChangeWrite(null),
        };
        // Strapi signs in by email OR username: a username that is the old address would still
        // open the account with it. New accounts have their address as username: it follows.
        if (String(found.username).toLowerCase() === String(found.email).toLowerCase()) data.username = newEmail;
        await users().update({ where: { id: found.id }, data });
        return { userId: found.id, email: newEmail };
      });
      if (outcome.reason === "invalid_token") return invalid();
      if (outcome.reason === "expired") {
        return refuse(ctx, 400, "ValidationError", "This link has expired", "expired");
      }
      if (outcome.reason === "taken") {
        return refuse(ctx, 409, "ConflictError", "This address now belongs to another account", "taken");
      }
      ctx.body = { ok: true, email: outcome.email };
      if (callerPayload && String(callerPayload.id) === String(outcome.userId)) {
        const authAtMs = authAtOf(callerPayload);
        const jwt = strapi
          .plugin("users-permissions")
          .service("jwt")
          .issue({ id: outcome.userId, ...(authAtMs === null ? {} : { authAtMs }) });
        const fresh = await users().findOne({
          where: { id: outcome.userId },
          select: ["id", "username", "email", "provider", "confirmed", "blocked"],
        });
        ctx.body = { ok: true, email: outcome.email, jwt, user: fresh };
      }
    },

    async endAll(ctx) {
      const { answer, user } = await caller(ctx);
      if (answer) return Object.assign(ctx, answer);
      await users().update({ where: { id: user.id }, data: { [END_SESSIONS]: true } });
      ctx.body = { ok: true };
    },
  };
};
