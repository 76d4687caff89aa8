"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");

const {
  reauthentication,
  authAtOf,
  FRESH_SIGN_IN_MS,
} = require("../../../../../../src/plugins/accounts/server/services/account/reauthentication");

test("an account with a password re-enters it; one without needs a provider sign-in of the last minutes", () => {
  const nowMs = 10_000_000;
  assert.equal(reauthentication({ hasPassword: true, authAtMs: nowMs, nowMs }), "password");
  assert.equal(reauthentication({ hasPassword: false, authAtMs: nowMs - 1000, nowMs }), "fresh");
  assert.equal(reauthentication({ hasPassword: false, authAtMs: nowMs - FRESH_SIGN_IN_MS - 1, nowMs }), "stale");
  assert.equal(reauthentication({ hasPassword: false, authAtMs: null, nowMs }), "stale");
  // A claim from the future (a forged or broken clock) does not count.
  assert.equal(reauthentication({ hasPassword: false, authAtMs: nowMs + 3_600_000, nowMs }), "stale");
});

test("the sign-in time comes from the authAtMs claim only, never from the JWT's issue time", () => {
  assert.equal(authAtOf({ id: 1, iatMs: 5, authAtMs: 7 }), 7);
  assert.equal(authAtOf({ id: 1, iatMs: 5, iat: 1 }), null);
  assert.equal(authAtOf({ id: 1, authAtMs: "7" }), null);
  assert.equal(authAtOf(null), null);
});
