"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");

const {
  lockState,
  afterFailure,
  MAX_FAILURES,
} = require("../../../../../../src/plugins/accounts/server/services/two-factor/backoff");

const MIN = 60 * 1000;

test("four failures lock nothing; the fifth locks for 5 minutes, each later one doubles, up to an hour", () => {
  const now = 1_000_000;
  let failures = 0;
  const locks = [];
  for (let i = 0; i < 10; i += 1) {
    const next = afterFailure(failures, now);
    failures = next.failures;
    locks.push(next.lockedUntilMs === null ? null : (next.lockedUntilMs - now) / MIN);
  }
  assert.equal(MAX_FAILURES, 5);
  assert.deepEqual(locks, [null, null, null, null, 5, 10, 20, 40, 60, 60]);
  assert.deepEqual(afterFailure(undefined, now), { failures: 1, lockedUntilMs: null });
  assert.equal(afterFailure(1000, now).lockedUntilMs, now + 60 * MIN);
});

test("locked until the time, with the seconds left rounded up", () => {
  assert.deepEqual(lockState(10_500, 10_000), { locked: true, retryAfterSeconds: 1 });
  assert.deepEqual(lockState(10_000 + 5 * MIN, 10_000), { locked: true, retryAfterSeconds: 300 });
  assert.deepEqual(lockState(10_000, 10_000), { locked: false, retryAfterSeconds: 0 });
  assert.deepEqual(lockState(null, 10_000), { locked: false, retryAfterSeconds: 0 });
});
