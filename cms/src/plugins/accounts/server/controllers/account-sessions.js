"use strict";

const { checkUsername } = require("../services/account/username");
const { reauthentication, authAtOf } = require("../services/account/reauthentication");
const { tokenPayload } = require("../services/account/session-token");
const {
  EMAIL_CHANGE_TTL_MS,
  checkNewEmail,
  checkToken,
  checkLocale,
  newToken,
  hashToken,
  pendingState,
  confirmLink,
  emailChangeMails,
} = require("../services/account/email-change");
const { END_SESSIONS, endAllSessions, isLiveSession } = require("../users-permissions/session-check");
const {
  TOKEN_HASH_FIELD,
  NEW_EMAIL_FIELD,
  EXPIRES_FIELD,
  SESSION_FIELD,
  pendingEmailChangeWrite,
} = require("../users-permissions/email-change-fields");
const { invalid, unauthorized, refusalError } = require("../utils/refusals");
const { lockInTransaction } = require("../utils/cluster-lock");

const USER_UID = "plugin::users-permissions.user";
const IDENTITY_UID = "plugin::accounts.oauth-identity";
const SESSION_UID = "admin::session";

/**
 * The signed-in user's own account (routes/content-api: /api/account-sessions/*). Strapi's
 * users-permissions strategy has authenticated the request (ctx.state.user) and checked the
 * Authenticated role's permission; only the email-change confirmation is public (its link's
 * token is the credential).
 */
module.exports = ({ strapi }) => {
  const { clientUrl, siteName, freshSignInSeconds } = strapi.config.get("plugin::accounts");
  const users = () => strapi.db.query(USER_UID);
  const jwt = () => strapi.plugin("users-permissions").service("jwt");
  /** The signed-in user (Strapi's auth) and the claims of the token it came with. */
  async function caller(ctx) {
    const user = ctx.state.user;
    const payload = await tokenPayload(jwt(), ctx);
    if (!user || !payload || String(payload.id) !== String(user.id)) {
      throw unauthorized("Missing or invalid credentials", "INVALID_SESSION");
    }
    return { user, payload };
  }

  /** Another user whose email or username is this address (Strapi signs in by either). */
  const otherUserWith = (email, userId) =>
    users().findOne({
      where: { $or: [{ email: { $eqi: email } }, { username: { $eqi: email } }], id: { $ne: userId } },
      select: ["id"],
    });

  /**
   * Re-authentication for a sensitive change: nothing when it is given, else throws the refusal.
   * The password for a user that has one; for one without, a provider sign-in of the last
   * minutes (the JWT's authAtMs, lib/reauthentication.js).
   */
  async function requireReauthentication(userId, payload, password) {
    const { password: hash } = await users().findOne({ where: { id: userId }, select: ["id", "password"] });
    const needs = reauthentication({
      hasPassword: Boolean(hash),
      authAtMs: authAtOf(payload),
      nowMs: Date.now(),
      windowMs: freshSignInSeconds * 1000,
    });
    if (needs === "stale") throw invalid("Sign in again first", "SIGN_IN_AGAIN");
    if (needs === "fresh") return;
    if (typeof password !== "string" || password.length === 0) {
      throw invalid("Password required", "PASSWORD_REQUIRED");
    }
    const userService = strapi.plugin("users-permissions").service("user");
    if (!(await userService.validatePassword(password, hash))) throw invalid("Wrong password", "INVALID_PASSWORD");
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
    async changeUsername(ctx) {
      const { user } = await caller(ctx);
      const { username, error } = checkUsername(ctx.request.body?.username);
      if (error) throw invalid(error, "INVALID_USERNAME");
      const taken = await users().findOne({
        where: { $or: [{ username: { $eqi: username } }, { email: { $eqi: username } }], id: { $ne: user.id } },
      });
      if (taken) throw refusalError(409, "Username already taken", "USERNAME_TAKEN");
      await users().update({ where: { id: user.id }, data: { username } });
      ctx.body = { ok: true, username };
    },

    async deleteAccount(ctx) {
      const { payload, user } = await caller(ctx);
      await requireReauthentication(user.id, payload, ctx.request.body?.password);
      await strapi.db.query(IDENTITY_UID).deleteMany({ where: { user: { id: user.id } } });
      await users().delete({ where: { id: user.id } });
      // Its sessions' rows go too (their tokens were refused anyway: no user).
      await endAllSessions(strapi, user.id);
      ctx.body = { ok: true };
    },

    /**
     * Asks for a change of the caller's email (body `{ email, password?, locale? }`), after the
     * same re-authentication as deletion. The same answer whether the new address is free or
     * taken; only when it is free a pending change is stored (the token's hash, the address, an
     * expiry) and the new address gets the link. The old address is told in both cases.
     */
    async requestEmailChange(ctx) {
      const { payload, user } = await caller(ctx);
      const body = ctx.request.body ?? {};
      const { email: newEmail, error } = checkNewEmail(body.email);
      if (error) throw invalid(error, "INVALID_EMAIL");
      const { email: oldEmail } = await users().findOne({ where: { id: user.id }, select: ["id", "email"] });
      if (String(oldEmail).toLowerCase() === newEmail) {
        throw invalid("This is already the account's email address", "SAME_EMAIL");
      }
      await requireReauthentication(user.id, payload, body.password);
      const taken = Boolean(await otherUserWith(newEmail, user.id));
      let link = null;
      if (!taken) {
        const { token, tokenHash } = newToken();
        // The asking session is kept with it: the change is confirmed only while that session is
        // live, so whatever ends it (a password change, two-factor on, sign out everywhere),
        // even while this request runs, ends the change too (docs/security.md, finding 36).
        const pending = {
          tokenHash,
          email: newEmail,
          expiresAt: Date.now() + EMAIL_CHANGE_TTL_MS,
          sessionId: payload.sessionId,
        };
        await users().update({ where: { id: user.id }, data: pendingEmailChangeWrite(pending) });
        link = confirmLink(clientUrl, token, checkLocale(body.locale));
      }
      const mails = emailChangeMails({ siteName, clientUrl, oldEmail, newEmail, link, taken });
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
      const invalidLink = () => invalid("This link is invalid or was already used", "INVALID_TOKEN");
      if (!token) throw invalidLink();
      // A public route (the link may be opened in another browser): a JWT, when one comes, is
      // read here, before the change, which ends every JWT the user has.
      const callerPayload = await tokenPayload(jwt(), ctx);
      const outcome = await strapi.db.transaction(async ({ trx }) => {
        // One confirmation of a link at a time, on every instance: the second finds it used.
        await lockInTransaction(strapi, trx, `email-change:${hashToken(token)}`);
        const found = await users().findOne({
          where: { [TOKEN_HASH_FIELD]: hashToken(token) },
          select: ["id", "email", "username", "blocked", NEW_EMAIL_FIELD, EXPIRES_FIELD, SESSION_FIELD],
        });
        if (!found || found.blocked || !found[NEW_EMAIL_FIELD]) return { reason: "invalid_token" };
        const clear = () => users().update({ where: { id: found.id }, data: pendingEmailChangeWrite(null) });
        // Only while the session that asked is live (a change stored before this field existed has none).
        const askedBy = found[SESSION_FIELD];
        const session =
          typeof askedBy === "string" && askedBy
            ? await strapi.db.query(SESSION_UID).findOne({ where: { sessionId: askedBy } })
            : null;
        if (!isLiveSession(session, found.id, Date.now())) {
          await clear();
          return { reason: "invalid_token" };
        }
        if (pendingState(found[EXPIRES_FIELD], Date.now()) === "expired") {
          await clear();
          return { reason: "expired" };
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
      if (outcome.reason === "invalid_token") throw invalidLink();
      if (outcome.reason === "expired") throw invalid("This link has expired", "LINK_EXPIRED");
      if (outcome.reason === "taken") {
        throw refusalError(409, "This address now belongs to another account", "EMAIL_TAKEN");
      }
      ctx.body = { ok: true, email: outcome.email };
      if (callerPayload && String(callerPayload.id) === String(outcome.userId)) {
        const authAtMs = authAtOf(callerPayload);
        // A new session (session-check.js issue()); every older one ended with the change.
        const newJwt = await jwt().issue({ id: outcome.userId, ...(authAtMs === null ? {} : { authAtMs }) });
        const fresh = await users().findOne({
          where: { id: outcome.userId },
          select: ["id", "username", "email", "provider", "confirmed", "blocked"],
        });
        ctx.body = { ok: true, email: outcome.email, jwt: newJwt, user: fresh };
      }
    },
  };
};
