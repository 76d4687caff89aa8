"use strict";

const { eachUserWrite } = require("../utils/user-writes");

/**
 * A password change or reset ends the user's other sessions.
 *
 * users-permissions' JWTs (the default 'legacy-support' mode) are never revoked: a password
 * change issues a new one, and every older one stays valid until it expires. The site's
 * session cookie carries such a JWT, so a copy of a cookie outlived the change of password.
 *
 * The user has a private `sessionsValidAfter` datetime, stored with the user (it survives
 * restarts, is shared by every instance, needs no Redis):
 * - set to "now" by any write that sets a password (change-password, reset-password, an
 *   admin's edit), in the database lifecycle, so no route can skip it;
 * - never set from outside: whatever a caller sends for it is dropped (PUT /api/users/:id
 *   passes the request body to the database as it is);
 * - every JWT issued before it is refused by the JWT service, on every content-API route.
 *   The site validates its session with GET /api/users/me on every request, so the 401
 *   signs that session out.
 *
 * Which time is compared: the JWT's issue time, from the CMS's clock, the clock that also
 * sets sessionsValidAfter (the site's session createdAt would bring the site's clock, and
 * any skew between the two machines, into it). jsonwebtoken's `iat` has whole seconds only:
 * the token issued for the change itself has the same `iat` as the change. So every token
 * carries `iatMs`, its issue time in milliseconds; tokens without it (issued before this
 * code) fall back to `iat`. The session that made the change gets a token issued after the
 * change, and stays valid.
 */

const FIELD = "sessionsValidAfter";
const REVOKED_FIELD = "revokedTokens";
const ISSUED_AT_MS = "iatMs";
const USER_UID = "plugin::users-permissions.user";
/** How many single revocations a user keeps; one more ends all the user's sessions instead. */
const MAX_REVOKED_TOKENS = 100;

/**
 * Markers only this code can put into a user write (a JSON body cannot carry a Symbol):
 * END_SESSIONS ends every session (sessionsValidAfter = now); REVOKED_LIST carries the user's
 * new revoked list (see revokeTokenWrite).
 */
const END_SESSIONS = Symbol("users-permissions.endSessions");
const REVOKED_LIST = Symbol("users-permissions.revokedTokens");

/**
 * The attribute added to plugin::users-permissions.user: not in the API's output, not writable,
 * not in the admin's forms.
 */
const SESSIONS_VALID_AFTER_ATTRIBUTE = {
  type: "datetime",
  private: true,
  configurable: false,
  writable: false,
  visible: false,
};

/**
 * The tokens signed out one by one (the site's sign-out), until they expire: a list of
 * `{ iatMs, exp }` (exp in seconds, the JWT's). Private and not writable, like sessionsValidAfter.
 */
const REVOKED_TOKENS_ATTRIBUTE = { ...SESSIONS_VALID_AFTER_ATTRIBUTE, type: "json" };

/** A stored revoked list, read defensively: only well-formed entries. */
function revokedList(value) {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (entry) => entry && Number.isFinite(entry.iatMs) && (entry.exp === null || Number.isFinite(entry.exp)),
  );
}

/** Whether the token is one that was signed out on its own. */
function isRevokedToken(payload, storedList) {
  const issued = payload && typeof payload === "object" ? payload[ISSUED_AT_MS] : undefined;
  if (typeof issued !== "number") return false;
  return revokedList(storedList).some((entry) => entry.iatMs === issued);
}

/**
 * The data of a write that signs one token out: the stored list without expired entries, plus
 * this token. Over MAX_REVOKED_TOKENS, the list is emptied and every session ends instead
 * (never dropping an entry that still counts). A token without iatMs cannot be told apart
 * from the user's others: every session ends.
 */
function revokeTokenWrite(payload, storedList, nowMs) {
  const issued = payload && typeof payload === "object" ? payload[ISSUED_AT_MS] : undefined;
  if (typeof issued !== "number") return { [END_SESSIONS]: true, [REVOKED_LIST]: [] };
  const exp = typeof payload.exp === "number" ? payload.exp : null;
  const live = revokedList(storedList).filter((entry) => entry.exp === null || entry.exp * 1000 > nowMs);
  if (live.some((entry) => entry.iatMs === issued)) return { [REVOKED_LIST]: live };
  if (live.length >= MAX_REVOKED_TOKENS) return { [END_SESSIONS]: true, [REVOKED_LIST]: [] };
  return { [REVOKED_LIST]: [...live, { iatMs: issued, exp }] };
}

/** A JWT payload with its issue time in milliseconds added (a plain object, or a model with toJSON). */
function withIssuedAtMs(payload, nowMs) {
  const plain = payload && typeof payload.toJSON === "function" ? payload.toJSON() : payload;
  if (!plain || typeof plain !== "object" || Array.isArray(plain)) return payload;
  return { ...plain, [ISSUED_AT_MS]: nowMs };
}

/**
 * When a verified token was issued, in ms: `iatMs`, else `iat` (seconds), else null (e.g.
 * refresh-mode access tokens).
 */
function issuedAtMs(payload) {
  if (!payload || typeof payload !== "object") return null;
  const ms = payload[ISSUED_AT_MS];
  if (typeof ms === "number" && Number.isFinite(ms)) return ms;
  const seconds = payload.iat;
  if (typeof seconds === "number" && Number.isFinite(seconds)) return seconds * 1000;
  return null;
}

/** A stored sessionsValidAfter (ISO string, Date, ms, null) in ms, or null when unset or unreadable. */
function validAfterMs(value) {
  if (value === null || value === undefined || value === "") return null;
  const ms = value instanceof Date ? value.getTime() : typeof value === "number" ? value : Date.parse(String(value));
  return Number.isFinite(ms) ? ms : null;
}

/** Whether a token was issued before the user's sessionsValidAfter (and so must be refused). */
function issuedBeforeValidAfter(payload, storedValidAfter) {
  const after = validAfterMs(storedValidAfter);
  const issued = issuedAtMs(payload);
  return after !== null && issued !== null && issued < after;
}

/**
 * The data of a user write, made safe (in place): a caller's sessionsValidAfter and revoked
 * list are dropped; a new password, `blocked: true` or END_SESSIONS sets sessionsValidAfter to now; REVOKED_LIST
 * (from revokeTokenWrite) becomes the revoked list. Returns whether sessionsValidAfter was set.
 */
function guardUserData(data, nowMs) {
  if (!data || typeof data !== "object" || Array.isArray(data)) return false;
  delete data[FIELD];
  delete data[REVOKED_FIELD];
  const end = data[END_SESSIONS] === true;
  const list = data[REVOKED_LIST];
  delete data[END_SESSIONS];
  delete data[REVOKED_LIST];
  if (Array.isArray(list)) data[REVOKED_FIELD] = list;
  // Blocking ends every session too: unblocked later, a copy of an old cookie must not come back.
  const blocking = data.blocked === true;
  if (end || blocking || (typeof data.password === "string" && data.password.length > 0)) {
    data[FIELD] = new Date(nowMs);
    return true;
  }
  return false;
}

/** Database lifecycles of the user: every create and update goes through guardUserData. */
function userLifecycles(now = Date.now) {
  return eachUserWrite((data) => guardUserData(data, now()));
}

/**
 * Wraps the plugin's JWT service: issue() adds `iatMs`; verify() (which getToken, and so
 * the authentication of every request, goes through) refuses a token issued before the
 * user's sessionsValidAfter, as it refuses a token with a bad signature.
 */
function wrapJwtService(service, { strapi, now = Date.now }) {
  const issue = service.issue;
  const verify = service.verify;
  return Object.assign(service, {
    issue(payload, jwtOptions) {
      return issue.call(this, withIssuedAtMs(payload, now()), jwtOptions);
    },
    async verify(token) {
      const payload = await verify.call(this, token);
      if (payload && payload.id !== undefined && issuedAtMs(payload) !== null) {
        const user = await strapi.db
          .query(USER_UID)
          .findOne({ where: { id: payload.id }, select: ["id", FIELD, REVOKED_FIELD] });
        if (user && (issuedBeforeValidAfter(payload, user[FIELD]) || isRevokedToken(payload, user[REVOKED_FIELD]))) {
          throw new Error("Invalid token.");
        }
      }
      return payload;
    },
  });
}

/** Applies all of the above to the users-permissions plugin (through ./extension-points.js; ./index.js). */
function extendUsersPermissions(points) {
  points.addUserAttributes({
    [FIELD]: SESSIONS_VALID_AFTER_ATTRIBUTE,
    [REVOKED_FIELD]: REVOKED_TOKENS_ATTRIBUTE,
  });
  points.guardUserWrites((data) => guardUserData(data, Date.now()));
  points.wrapService("jwt", (service) => wrapJwtService(service, { strapi: points.strapi }));
}

module.exports = {
  FIELD,
  REVOKED_FIELD,
  MAX_REVOKED_TOKENS,
  END_SESSIONS,
  REVOKED_LIST,
  REVOKED_TOKENS_ATTRIBUTE,
  isRevokedToken,
  revokeTokenWrite,
  ISSUED_AT_MS,
  SESSIONS_VALID_AFTER_ATTRIBUTE,
  withIssuedAtMs,
  issuedAtMs,
  validAfterMs,
  issuedBeforeValidAfter,
  guardUserData,
  userLifecycles,
  wrapJwtService,
  extendUsersPermissions,
};
