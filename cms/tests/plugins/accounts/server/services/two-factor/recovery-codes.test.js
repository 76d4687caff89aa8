"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");

const {
  ALPHABET,
  generateRecoveryCodes,
  normaliseRecoveryCode,
  hashRecoveryCode,
  findRecoveryCode,
} = require("../../../../../../src/plugins/accounts/server/services/two-factor/recovery-codes");

const key = Buffer.alloc(32, 7);

test("10 different codes XXXXX-XXXXX, without 0, O, 1 or I", () => {
  const codes = generateRecoveryCodes();
  assert.equal(codes.length, 10);
  assert.equal(new Set(codes).size, 10);
  for (const code of codes) assert.match(code, /^[2-9A-HJ-NP-Z]{5}-[2-9A-HJ-NP-Z]{5}$/);
  assert.equal(ALPHABET.length, 32);
  assert.doesNotMatch(ALPHABET, /[01OI]/);
});

test("a typed code: any case, dash and spaces optional; anything else is not a code", () => {
  assert.equal(normaliseRecoveryCode("abcde-fghjk"), "ABCDEFGHJK");
  assert.equal(normaliseRecoveryCode(" ABCDE FGHJK "), "ABCDEFGHJK");
  assert.equal(normaliseRecoveryCode("ABCDEFGHJK"), "ABCDEFGHJK");
  for (const bad of [undefined, 42, "", "ABCDE-FGHJ", "ABCDE-FGHJKL", "ABCDE-FGHJ0", "ABCDE-FGHJI", "123456"]) {
    assert.equal(normaliseRecoveryCode(bad), null, JSON.stringify(bad));
  }
});

test("only hashes are stored; a typed code finds its own hash, for its own user only", () => {
  const codes = generateRecoveryCodes();
  const stored = codes.map((code) => hashRecoveryCode(key, 7, normaliseRecoveryCode(code)));
  for (const hash of stored) assert.match(hash, /^[0-9a-f]{64}$/);
  assert.equal(findRecoveryCode(key, 7, codes[3].toLowerCase().replace("-", ""), stored), 3);
  assert.equal(findRecoveryCode(key, 8, codes[3], stored), -1, "another user's hash list");
  assert.equal(findRecoveryCode(Buffer.alloc(32, 8), 7, codes[3], stored), -1, "another key");
  assert.equal(findRecoveryCode(key, 7, "ZZZZZ-ZZZZZ", stored), -1);
  assert.equal(findRecoveryCode(key, 7, codes[0], null), -1);
});
