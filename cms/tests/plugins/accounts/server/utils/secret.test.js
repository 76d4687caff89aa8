"use strict";

// Run with `npm test` in cms/ (node:test).
const test = require("node:test");
const assert = require("node:assert/strict");
const crypto = require("node:crypto");

const { checkBearerSecret } = require("../../../../../src/plugins/accounts/server/utils/secret");

const SECRET = "a".repeat(20) + "-correct-horse-battery-staple";

test("no secret configured → unconfigured, whatever the header", () => {
  for (const secret of [undefined, "", "   "]) {
    assert.equal(checkBearerSecret(`Bearer ${SECRET}`, secret), "unconfigured");
    assert.equal(checkBearerSecret(undefined, secret), "unconfigured");
  }
});

test("the right secret → ok (scheme case-insensitive, surrounding blanks tolerated)", () => {
  assert.equal(checkBearerSecret(`Bearer ${SECRET}`, SECRET), "ok");
  assert.equal(checkBearerSecret(`bearer ${SECRET}`, SECRET), "ok");
  assert.equal(checkBearerSecret(`Bearer  ${SECRET} `, SECRET), "ok");
  assert.equal(checkBearerSecret(`Bearer ${SECRET}`, `${SECRET}\n`), "ok", "a trailing newline in the env value");
  assert.equal(checkBearerSecret([`Bearer ${SECRET}`], SECRET), "ok");
});

test("no usable credentials → missing", () => {
  for (const header of [undefined, "", "Bearer", "Bearer ", SECRET, `Basic ${SECRET}`, `Bearer a b`, 42]) {
    assert.equal(checkBearerSecret(header, SECRET), "missing", String(header));
  }
});

test("a wrong secret → invalid: prefix, longer, shorter, other case", () => {
  for (const given of [
    SECRET.slice(0, -1),
    `${SECRET}x`,
    SECRET.toUpperCase(),
    "x",
    SECRET.replace("horse", "house"),
  ]) {
    assert.equal(checkBearerSecret(`Bearer ${given}`, SECRET), "invalid", given);
  }
});

test("compares SHA-256 digests with crypto.timingSafeEqual (equal-length buffers, never a string ===)", (t) => {
  const spy = t.mock.method(crypto, "timingSafeEqual");
  checkBearerSecret("Bearer short", SECRET);
  checkBearerSecret(`Bearer ${SECRET}`, SECRET);
  checkBearerSecret(undefined, SECRET);
  assert.equal(spy.mock.callCount(), 3, "every checked request goes through timingSafeEqual, also a missing header");
  for (const call of spy.mock.calls) {
    assert.equal(call.arguments[0].length, 32);
    assert.equal(call.arguments[1].length, 32);
  }
});
