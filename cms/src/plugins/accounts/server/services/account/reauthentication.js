"use strict";

/** How recent a sign-in must be for an account without a password to be deleted or to change its email. */
const FRESH_SIGN_IN_MS = 5 * 60 * 1000;

/**
 * The JWT claim that says when its user last signed in with a provider (ms): set only by the
 * OAuth sync of a callback (a real round trip to the provider, ../oauth-sync), carried
 * unchanged into the JWTs that replace that one (the site's re-sync, a confirmed email change).
 * A JWT without it (any other) never counts as a fresh sign-in.
 */
const AUTH_AT_CLAIM = "authAtMs";

/** The claim of a verified JWT payload, or null. */
function authAtOf(payload) {
  const value = payload && typeof payload === "object" ? payload[AUTH_AT_CLAIM] : undefined;
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

/**
 * What a sensitive change (delete the account, change its email) needs from the caller:
 * "password" (the account has one: it must be re-entered), or, for an account without a
 * password (made by an OAuth sign-in), a provider sign-in within FRESH_SIGN_IN_MS of now
 * (`authAtMs` from the JWT: "fresh"; else "stale": sign in again first). `windowMs`: the plugin's
 * freshSignInSeconds (CMS_FRESH_SIGN_IN_SECONDS), in ms.
 */
function reauthentication({ hasPassword, authAtMs, nowMs, windowMs = FRESH_SIGN_IN_MS }) {
  if (hasPassword) return "password";
  if (typeof authAtMs !== "number" || authAtMs > nowMs + 60_000 || nowMs - authAtMs > windowMs) return "stale";
  return "fresh";
}

module.exports = { reauthentication, authAtOf, AUTH_AT_CLAIM, FRESH_SIGN_IN_MS };
