"use strict";

/**
 * The pending email change of a user (docs/decisions/0020-account-lifecycle.md, "Change of
 * email"): four private fields on plugin::users-permissions.user, written only by
 * ../controllers/account-sessions.js (through the PENDING_EMAIL_CHANGE marker below):
 * - `emailChangeTokenHash`: SHA-256 (hex) of the token the confirmation mail carries (the token
 *   itself is never stored);
 * - `emailChangeNewEmail`: the address asked for;
 * - `emailChangeExpiresAt`: when the token stops working;
 * - `emailChangeSessionId`: the session that asked for it (its `sessionId`); the confirmation is
 *   refused unless that session is still live (docs/security.md, finding 36).
 * Private (never in an API answer), not writable, not in the admin's forms. A value a caller
 * puts into a user write (PUT /api/users/:id passes the request body to the database) is dropped.
 */

const TOKEN_HASH_FIELD = "emailChangeTokenHash";
const NEW_EMAIL_FIELD = "emailChangeNewEmail";
const EXPIRES_FIELD = "emailChangeExpiresAt";
const SESSION_FIELD = "emailChangeSessionId";
const FIELDS = [TOKEN_HASH_FIELD, NEW_EMAIL_FIELD, EXPIRES_FIELD, SESSION_FIELD];

/** The marker only this code can put into a user write (a JSON body cannot carry a Symbol). */
const PENDING_EMAIL_CHANGE = Symbol("users-permissions.pendingEmailChange");

const HIDDEN = { private: true, configurable: false, writable: false, visible: false };
const ATTRIBUTES = {
  [TOKEN_HASH_FIELD]: { type: "string", ...HIDDEN },
  [NEW_EMAIL_FIELD]: { type: "string", ...HIDDEN },
  [EXPIRES_FIELD]: { type: "datetime", ...HIDDEN },
  [SESSION_FIELD]: { type: "string", ...HIDDEN },
};

/** The data of a write that stores a pending change (`{ tokenHash, email, expiresAt, sessionId }`) or clears it (null). */
function pendingEmailChangeWrite(pending) {
  return { [PENDING_EMAIL_CHANGE]: pending ?? null };
}

/** A user write made safe (in place): a caller's values dropped, the marker's turned into the fields. */
function guardEmailChangeData(data) {
  if (!data || typeof data !== "object" || Array.isArray(data)) return;
  for (const field of FIELDS) delete data[field];
  if (!Object.hasOwn(data, PENDING_EMAIL_CHANGE)) return;
  const pending = data[PENDING_EMAIL_CHANGE];
  delete data[PENDING_EMAIL_CHANGE];
  data[TOKEN_HASH_FIELD] = pending ? pending.tokenHash : null;
  data[NEW_EMAIL_FIELD] = pending ? pending.email : null;
  data[EXPIRES_FIELD] = pending ? new Date(pending.expiresAt) : null;
  data[SESSION_FIELD] = pending && typeof pending.sessionId === "string" ? pending.sessionId : null;
}

/** Adds the fields and the write guard to the users-permissions user (./index.js). */
function extendEmailChange(points) {
  points.addUserAttributes(ATTRIBUTES);
  points.guardUserWrites(guardEmailChangeData);
}

module.exports = {
  TOKEN_HASH_FIELD,
  NEW_EMAIL_FIELD,
  EXPIRES_FIELD,
  SESSION_FIELD,
  PENDING_EMAIL_CHANGE,
  pendingEmailChangeWrite,
  guardEmailChangeData,
  extendEmailChange,
};
