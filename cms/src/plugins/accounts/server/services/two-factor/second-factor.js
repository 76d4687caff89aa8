"use strict";

/**
 * Checking a second-factor code against a user's stored state: pure (the caller reads the user,
 * opens the secret and writes what this returns), so the whole decision is unit-tested.
 */
const { totpCodeOf, matchingStep } = require("./totp");
const { normaliseRecoveryCode, findRecoveryCode, storedHashes } = require("./recovery-codes");
const { lockState, afterFailure } = require("./backoff");

/** Which kind of code a typed string is: "totp", "recovery", or null (neither can match). */
function codeKind(input) {
  if (totpCodeOf(input) !== null) return "totp";
  if (normaliseRecoveryCode(input) !== null) return "recovery";
  return null;
}

/**
 * What is refused before a code is compared: a string that cannot be a code (400, counts for
 * nothing), or any attempt while the account is locked (429). Null: go on.
 */
function precheck(input, state, nowMs) {
  if (codeKind(input) === null) {
    return { ok: false, error: { status: 400, code: "INVALID_CODE", garbled: true }, changes: {} };
  }
  const lock = lockState(state.lockedUntilMs, nowMs);
  if (!lock.locked) return null;
  return {
    ok: false,
    error: { status: 429, code: "TOO_MANY_ATTEMPTS", retryAfterSeconds: lock.retryAfterSeconds },
    changes: {},
  };
}

/**
 * Checks `input` for a user with two-factor on. `state`: `{ userId, key (the TOTP secret's
 * bytes), recoveryHashes, lastStep, failures, lockedUntilMs }`; `recoveryKey`: the hashes' key.
 * Returns `{ ok: true, method, changes, recoveryCodesLeft }` or `{ ok: false, error, changes }`,
 * where `changes` are the state's fields to store (`{}`: nothing to store) and `error` is
 * `{ status, code, retryAfterSeconds? }`.
 * Order: a string that cannot be a code is refused first and counts for nothing; then the lock;
 * then the code. A TOTP code of a step already used (or older than one used) is refused, and
 * counts as a failure like a wrong code.
 */
function checkSecondFactor(input, state, { recoveryKey, nowMs, countFailure = true }) {
  const refused = precheck(input, state, nowMs);
  if (refused) return refused;
  const hashes = storedHashes(state.recoveryHashes);
  const fail = (code) => ({
    ok: false,
    error: { status: 400, code },
    changes: failureChanges(state, nowMs, countFailure),
  });
  const success = (method, changes) => ({
    ok: true,
    method,
    changes: { failures: 0, lockedUntilMs: null, ...changes },
    recoveryCodesLeft: changes.recoveryHashes ? changes.recoveryHashes.length : hashes.length,
  });

  if (codeKind(input) === "totp") {
    const step = matchingStep(state.key, totpCodeOf(input), nowMs);
    if (step === null) return fail("INVALID_CODE");
    if (Number.isInteger(state.lastStep) && step <= state.lastStep) return fail("CODE_ALREADY_USED");
    return success("totp", { lastStep: step });
  }
  const index = findRecoveryCode(recoveryKey, state.userId, input, hashes);
  if (index < 0) return fail("INVALID_CODE");
  return success("recovery", { recoveryHashes: hashes.filter((_, i) => i !== index) });
}

/** The failure count and lock after one more failure (or nothing, when failures do not count). */
function failureChanges(state, nowMs, countFailure = true) {
  if (!countFailure) return {};
  return afterFailure(state.failures, nowMs);
}

module.exports = { codeKind, precheck, checkSecondFactor, failureChanges };
