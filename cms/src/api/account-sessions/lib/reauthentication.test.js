"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");

const { reauthentication, FRESH_SIGN_IN_MS } = require("./reauthentication");

test("an account with a password re-enters it; one without needs a sign-in of the last minutes", () => {
  const nowMs = 10_000_000;
  assert.equal(reauthentication({ hasPassword: true, issuedAtMs: nowMs, nowMs }), "password");
  assert.equal(reauthentication({ hasPassword: false, issuedAtMs: nowMs - 1000, nowMs }), "fresh");
  assert.equal(reauthentication({ hasPassword: false, issuedAtMs: nowMs - FRESH_SIGN_IN_MS - 1, nowMs }), "stale");
  assert.equal(reauthentication({ hasPassword: false, issuedAtMs: undefined, nowMs }), "stale");
});
