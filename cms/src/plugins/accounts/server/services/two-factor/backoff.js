"use strict";

/**
 * The per-account limit on second-factor codes: after MAX_FAILURES wrong codes in a row, no code
 * is even checked until the lock ends: BASE_LOCK_MS, doubling with each further failure (one
 * try after each lock), at most MAX_LOCK_MS. A correct code resets the count.
 * Stored on the user (failures, lockedUntil): it holds across the site's instances and restarts,
 * and for every IP address, whereas the site's per-IP limit does not stop a spread-out attack.
 */
const MAX_FAILURES = 5;
const BASE_LOCK_MS = 5 * 60 * 1000;
const MAX_LOCK_MS = 60 * 60 * 1000;

/** Whether attempts are refused now, and for how many more seconds. */
function lockState(lockedUntilMs, nowMs) {
  if (typeof lockedUntilMs !== "number" || !Number.isFinite(lockedUntilMs) || lockedUntilMs <= nowMs) {
    return { locked: false, retryAfterSeconds: 0 };
  }
  return { locked: true, retryAfterSeconds: Math.ceil((lockedUntilMs - nowMs) / 1000) };
}

/** The count and lock after one more failure (lockedUntilMs null: not locked). */
function afterFailure(failures, nowMs) {
  const count = (Number.isInteger(failures) && failures > 0 ? failures : 0) + 1;
  if (count < MAX_FAILURES) return { failures: count, lockedUntilMs: null };
  const lockMs = Math.min(BASE_LOCK_MS * 2 ** Math.min(count - MAX_FAILURES, 20), MAX_LOCK_MS);
  return { failures: count, lockedUntilMs: nowMs + lockMs };
}

module.exports = { MAX_FAILURES, BASE_LOCK_MS, MAX_LOCK_MS, lockState, afterFailure };
