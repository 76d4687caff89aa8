"use strict";

/** How recent a sign-in must be for an account without a password to be deleted. */
const FRESH_SIGN_IN_MS = 5 * 60 * 1000;

/**
 * What deleting the account needs from the caller: "password" (the account has one: it must be
 * re-entered), or, for an account without a password (made by an OAuth sign-in), a JWT issued
 * within FRESH_SIGN_IN_MS ("fresh"; else "stale": sign in again first).
 */
function reauthentication({ hasPassword, issuedAtMs, nowMs }) {
  if (hasPassword) return "password";
  if (typeof issuedAtMs !== "number" || nowMs - issuedAtMs > FRESH_SIGN_IN_MS) return "stale";
  return "fresh";
}

module.exports = { reauthentication, FRESH_SIGN_IN_MS };
