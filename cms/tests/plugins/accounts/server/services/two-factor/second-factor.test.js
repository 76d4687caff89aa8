"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");

const {
  checkSecondFactor,
  codeKind,
} = require("../../../../../../src/plugins/accounts/server/services/two-factor/second-factor");
const { hotp, timeStep } = require("../../../../../../src/plugins/accounts/server/services/two-factor/totp");
const {
  generateRecoveryCodes,
  hashRecoveryCode,
  normaliseRecoveryCode,
} = require("../../../../../../src/plugins/accounts/server/services/two-factor/recovery-codes");

const key = Buffer.from("12345678901234567890");
const recoveryKey = Buffer.alloc(32, 1);
const nowMs = 1_700_000_000_000;
const step = timeStep(nowMs);
const codes = generateRecoveryCodes();
const state = (over = {}) => ({
  userId: 7,
  key,
  recoveryHashes: codes.map((code) => hashRecoveryCode(recoveryKey, 7, normaliseRecoveryCode(code))),
  lastStep: null,
  failures: 0,
  lockedUntilMs: null,
  ...over,
});
const check = (input, over) => checkSecondFactor(input, state(over), { recoveryKey, nowMs });

test("what a typed string is", () => {
  assert.equal(codeKind("123456"), "totp");
  assert.equal(codeKind(codes[0]), "recovery");
  for (const bad of [undefined, "", "12345", "not a code", { code: 1 }]) assert.equal(codeKind(bad), null);
});

test("a current TOTP code: accepted, its step stored, the failures reset", () => {
  const result = check(hotp(key, step), { failures: 3 });
  assert.deepEqual(result, {
    ok: true,
    method: "totp",
    changes: { failures: 0, lockedUntilMs: null, lastStep: step },
    recoveryCodesLeft: 10,
  });
});

test("a code of the last used step, or an earlier one in the window, is refused as used, and counts", () => {
  for (const used of [step, step + 1]) {
    const result = check(hotp(key, step), { lastStep: used, failures: 1 });
    assert.equal(result.ok, false);
    assert.deepEqual(result.error, { status: 400, code: "CODE_ALREADY_USED" });
    assert.deepEqual(result.changes, { failures: 2, lockedUntilMs: null });
  }
  assert.equal(check(hotp(key, step + 1), { lastStep: step }).ok, true, "the next step's code is new");
});

test("a wrong code counts; the fifth locks", () => {
  const wrong = hotp(key, step + 5);
  assert.deepEqual(check(wrong).error, { status: 400, code: "INVALID_CODE" });
  assert.deepEqual(check(wrong).changes, { failures: 1, lockedUntilMs: null });
  assert.deepEqual(check(wrong, { failures: 4 }).changes, { failures: 5, lockedUntilMs: nowMs + 5 * 60 * 1000 });
  assert.deepEqual(check("ZZZZZ-ZZZZZ").changes, { failures: 1, lockedUntilMs: null }, "a wrong recovery code");
});

test("while locked nothing is compared, not even the right code, and nothing changes", () => {
  const result = check(hotp(key, step), { failures: 5, lockedUntilMs: nowMs + 90_000 });
  assert.deepEqual(result, {
    ok: false,
    error: { status: 429, code: "TOO_MANY_ATTEMPTS", retryAfterSeconds: 90 },
    changes: {},
  });
  assert.equal(check(hotp(key, step), { failures: 5, lockedUntilMs: nowMs - 1 }).ok, true, "after the lock");
});

test("a garbled input is refused first and changes nothing, even while locked", () => {
  for (const bad of [undefined, "", "12 34", "hello"]) {
    const result = check(bad, { lockedUntilMs: nowMs + 1000 });
    assert.deepEqual(result, { ok: false, error: { status: 400, code: "INVALID_CODE", garbled: true }, changes: {} });
  }
});

test("a recovery code: accepted once (any case, without its dash), then gone", () => {
  const typed = codes[2].toLowerCase().replace("-", "");
  const first = check(typed);
  assert.equal(first.ok, true);
  assert.equal(first.method, "recovery");
  assert.equal(first.recoveryCodesLeft, 9);
  assert.equal(first.changes.recoveryHashes.length, 9);
  const again = checkSecondFactor(typed, state({ recoveryHashes: first.changes.recoveryHashes }), {
    recoveryKey,
    nowMs,
  });
  assert.deepEqual(again.error, { status: 400, code: "INVALID_CODE" });
});
