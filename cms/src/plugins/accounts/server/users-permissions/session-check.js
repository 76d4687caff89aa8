"use strict";

const { randomUUID } = require("node:crypto");

const { PENDING_EMAIL_CHANGE } = require("./email-change-fields");

/**
 * Sessions are Strapi's own (users-permissions `jwtManagement: 'refresh'`, config/plugins.js): each
 * sign-in is a row of `admin::session` (origin `users-permissions`), stored in the database, so it
 * survives restarts and needs no Redis; Strapi's `POST /api/auth/logout` ends one session (the
 * access token's) or all of them (`{ scope: 'all' }`), and change-password / reset-password end
 * every session of the user and answer a new one (docs/decisions/0025-strapi-session-management.md).
 *
 * What stays hand-written, here:
 *
 * 1. **The per-access check.** Strapi verifies an access token statelessly (signature, type
 *    `access`, expiry): a session ended in the database still lets its access tokens in until they
 *    expire. The site needs an ended session refused at its very next request, so the JWT service's
 *    verify() (through which every content-API authentication goes) also requires the token's
 *    session row to exist, belong to this user and origin, be `active` and not expired.
 * 2. **Claims on the session.** In refresh mode an access token carries only
 *    `{ userId, sessionId, type }`; what the project put into its JWTs (`authAtMs`: a provider
 *    sign-in's time; `twoFactorPending`: a password step still waiting for its code) goes into the
 *    session's `metadata`, which verify() returns as if it were in the token. issue() (used by the
 *    OAuth sync, the email-change confirmation and two-factor) starts such a session.
 * 3. **Ending every session on writes Strapi does not cover:** a password set outside
 *    change-password / reset-password (an admin's edit), a user blocked by an admin, and the project's
 *    own privilege changes (`END_SESSIONS`: enabling two-factor, a confirmed change of email). Any
 *    of them also voids a pending change of email (docs/security.md, finding 23).
 */

const ORIGIN = "users-permissions";
const SESSION_UID = "admin::session";
const USER_UID = "plugin::users-permissions.user";
/** Claims kept in a session's metadata and given back by verify(). */
const SESSION_CLAIMS = ["authAtMs", "twoFactorPending"];
/** The marker only this code can put into a user write (a JSON body cannot carry a Symbol): end every session. */
const END_SESSIONS = Symbol("users-permissions.endSessions");

/** A stored date (Date, ISO string, ms) in ms, or null when unset or unreadable. */
function dateMs(value) {
  if (value === null || value === undefined || value === "") return null;
  const ms = value instanceof Date ? value.getTime() : typeof value === "number" ? value : Date.parse(String(value));
  return Number.isFinite(ms) ? ms : null;
}

/** The project's claims in a session's metadata: `authAtMs` (a finite number), `twoFactorPending` (true only). */
function claimsOf(metadata) {
  const claims = {};
  if (!metadata || typeof metadata !== "object") return claims;
  if (Number.isFinite(metadata.authAtMs)) claims.authAtMs = metadata.authAtMs;
  if (metadata.twoFactorPending === true) claims.twoFactorPending = true;
  return claims;
}

/** The claims of a payload given to issue(), for the session's metadata. */
function claimsToStore(payload) {
  const plain = payload && typeof payload.toJSON === "function" ? payload.toJSON() : payload;
  return claimsOf(Object.fromEntries(SESSION_CLAIMS.map((name) => [name, plain?.[name]])));
}

/**
 * Whether a session row lets an access token of `userId` in: it exists, is users-permissions',
 * is the user's, is `active` (not rotated away), and neither its idle nor its absolute expiry has passed.
 */
function isLiveSession(session, userId, nowMs) {
  if (!session || typeof session !== "object") return false;
  if (session.origin !== ORIGIN || session.status !== "active") return false;
  if (userId === undefined || userId === null || String(session.userId) !== String(userId)) return false;
  const expires = dateMs(session.expiresAt);
  if (expires === null || expires <= nowMs) return false;
  const absolute = dateMs(session.absoluteExpiresAt);
  return absolute === null || absolute > nowMs;
}

function isRefreshMode(strapi) {
  return strapi.config.get("plugin::users-permissions.jwtManagement", "legacy-support") === "refresh";
}

const sessionManager = (strapi) => strapi.sessionManager(ORIGIN);

/**
 * Starts a session for the user (its own device id) with these claims in its metadata; returns
 * its access token. The refresh token is not handed out: the site never refreshes (0025).
 */
async function startSession(strapi, userId, claims = {}) {
  const manager = sessionManager(strapi);
  const refresh = await manager.generateRefreshToken(String(userId), randomUUID(), {
    type: "refresh",
    metadata: { ...claimsOf(claims) },
  });
  const access = await manager.generateAccessToken(refresh.token);
  if (!access || "error" in access) throw new Error("Cannot issue token: the new session is not active");
  return access.token;
}

/** Ends every session of the user (Strapi's own invalidation: the rows are deleted). */
async function endAllSessions(strapi, userId) {
  await sessionManager(strapi).invalidateRefreshToken(String(userId));
}

/** The session id of an access token this CMS signed, or null. */
function sessionIdOf(strapi, accessToken) {
  const result = sessionManager(strapi).validateAccessToken(accessToken);
  return result.isValid && typeof result.payload?.sessionId === "string" ? result.payload.sessionId : null;
}

/** Changes claims in a session's metadata (`undefined` removes one); false when no such session. */
async function updateSessionClaims(strapi, sessionId, changes) {
  const sessions = strapi.db.query(SESSION_UID);
  const session = await sessions.findOne({ where: { sessionId }, select: ["id", "metadata"] });
  if (!session) return false;
  const metadata = { ...(session.metadata && typeof session.metadata === "object" ? session.metadata : {}) };
  for (const [name, value] of Object.entries(changes)) {
    if (value === undefined) delete metadata[name];
    else metadata[name] = value;
  }
  await sessions.update({ where: { id: session.id }, data: { metadata } });
  return true;
}

/**
 * Wraps the plugin's JWT service (refresh mode): issue() starts a session carrying the payload's
 * claims; verify() refuses a token whose session is not live (as it refuses a bad signature:
 * "Invalid token.") and returns the session's claims with `id` and `sessionId`.
 */
function wrapJwtService(service, { strapi, now = Date.now }) {
  const issue = service.issue;
  const verify = service.verify;
  return Object.assign(service, {
    issue(payload, jwtOptions) {
      if (!isRefreshMode(strapi)) return issue.call(this, payload, jwtOptions);
      const id = payload?.id;
      if (id === undefined || id === null || id === "") throw new Error("Cannot issue token: missing user id");
      return startSession(strapi, id, claimsToStore(payload));
    },
    async verify(token, ...rest) {
      const payload = await verify.call(this, token, ...rest);
      if (!isRefreshMode(strapi)) return payload;
      const session =
        typeof payload?.sessionId === "string"
          ? await strapi.db.query(SESSION_UID).findOne({ where: { sessionId: payload.sessionId } })
          : null;
      if (!isLiveSession(session, payload?.id, now())) throw new Error("Invalid token.");
      return { ...claimsOf(session.metadata), id: payload.id, sessionId: payload.sessionId };
    },
  });
}

/**
 * Whether a user write ends every session (in place, the marker removed): END_SESSIONS, a new
 * password, or `blocked: true` (unblocked later, an old session must not come back). Such a write
 * also clears a pending change of email, unless it sets one itself.
 */
function guardUserData(data) {
  if (!data || typeof data !== "object" || Array.isArray(data)) return false;
  const marked = data[END_SESSIONS] === true;
  delete data[END_SESSIONS];
  const ends = marked || data.blocked === true || (typeof data.password === "string" && data.password.length > 0);
  if (ends && !Object.hasOwn(data, PENDING_EMAIL_CHANGE)) data[PENDING_EMAIL_CHANGE] = null;
  return ends;
}

/**
 * Strapi's `POST /api/auth/logout` with `{ scope: 'all' }` ("sign out everywhere") ends every
 * session itself; the pending change of email is voided here, as for every other end of all sessions.
 */
function wrapLogout(controller, strapi) {
  const logout = controller.logout;
  if (typeof logout !== "function") return controller;
  controller.logout = async (ctx, ...rest) => {
    const result = await logout.call(controller, ctx, ...rest);
    const userId = ctx.state?.user?.id;
    if (ctx.request?.body?.scope === "all" && userId !== undefined && ctx.status < 300) {
      await strapi.db.query(USER_UID).update({ where: { id: userId }, data: { [END_SESSIONS]: true } });
    }
    return result;
  };
  return controller;
}

/**
 * At start (../register.js, before anything is extended): the mode this code is written for, else a
 * clear error. In legacy-support mode no session could be ended. (Strapi's logout, which the site's
 * sign-outs call, is granted to the Authenticated role on every start: ../services/permissions.js.)
 */
function assertRefreshMode(strapi) {
  if (!isRefreshMode(strapi)) {
    throw new Error(
      "[sessions] users-permissions must run with jwtManagement: 'refresh' (cms/config/plugins.js): " +
        "the site's sessions are Strapi's sessions (docs/decisions/0025-strapi-session-management.md).",
    );
  }
}

/**
 * Applies all of the above to the users-permissions plugin (through ./extension-points.js; ./index.js,
 * first: the JWT service it wraps is the one ./two-factor-sign-in.js wraps in turn, and its write
 * guard runs before ./email-change-fields.js turns the voided pending change into its fields).
 */
function extendSessionCheck(points) {
  const { strapi } = points;
  points.guardUserWrites(guardUserData, {
    // Once written: the users whose write ended their sessions (../utils/user-writes.js).
    afterUpdate: async (userIds) => {
      for (const id of userIds) await endAllSessions(strapi, id);
    },
  });
  points.wrapService("jwt", (service) => wrapJwtService(service, { strapi }));
  points.wrapController("auth", (controller) => wrapLogout(controller, strapi));
}

module.exports = {
  ORIGIN,
  END_SESSIONS,
  SESSION_CLAIMS,
  dateMs,
  claimsOf,
  claimsToStore,
  isLiveSession,
  isRefreshMode,
  startSession,
  endAllSessions,
  sessionIdOf,
  updateSessionClaims,
  wrapJwtService,
  guardUserData,
  wrapLogout,
  assertRefreshMode,
  extendSessionCheck,
};
