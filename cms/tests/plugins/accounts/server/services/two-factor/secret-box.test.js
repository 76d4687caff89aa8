"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const crypto = require("node:crypto");

const {
  twoFactorKeys,
  parseMasterKey,
  seal,
  open,
} = require("../../../../../../src/plugins/accounts/server/services/two-factor/secret-box");

const keys = twoFactorKeys({ encryptionKey: "test-encryption-key" });

test("a sealed secret opens with the same key and context; each sealing has a new IV", () => {
  const a = seal(keys.encryption, "JBSWY3DPEHPK3PXP", "user:7:twoFactorSecret");
  const b = seal(keys.encryption, "JBSWY3DPEHPK3PXP", "user:7:twoFactorSecret");
  assert.notEqual(a, b);
  assert.match(a, /^v1\.[A-Za-z0-9_-]+$/);
  assert.ok(!a.includes("JBSWY3DPEHPK3PXP"));
  assert.equal(open(keys.encryption, a, "user:7:twoFactorSecret"), "JBSWY3DPEHPK3PXP");
  assert.equal(open(keys.encryption, b, "user:7:twoFactorSecret"), "JBSWY3DPEHPK3PXP");
});

test("a changed value, another user or field, another key: it does not open", () => {
  const sealed = seal(keys.encryption, "JBSWY3DPEHPK3PXP", "user:7:twoFactorSecret");
  const bytes = Buffer.from(sealed.slice(3), "base64url");
  for (const index of [0, 13, 30, bytes.length - 1]) {
    const changed = Buffer.from(bytes);
    changed[index] ^= 1;
    assert.throws(() => open(keys.encryption, `v1.${changed.toString("base64url")}`, "user:7:twoFactorSecret"));
  }
  assert.throws(() => open(keys.encryption, sealed, "user:8:twoFactorSecret"));
  assert.throws(() => open(keys.encryption, sealed, "user:7:twoFactorPendingSecret"));
  const other = twoFactorKeys({ encryptionKey: "another-encryption-key" });
  assert.throws(() => open(other.encryption, sealed, "user:7:twoFactorSecret"));
  for (const garbage of ["", "v1.", "v2.abc", "v1.AAAA", null])
    assert.throws(() => open(keys.encryption, garbage, "c"));
});

test("the key: TWO_FACTOR_ENCRYPTION_KEY (hex or base64, 32 bytes) wins; else derived from ENCRYPTION_KEY", () => {
  const raw = crypto.randomBytes(32);
  const hex = twoFactorKeys({ twoFactorEncryptionKey: raw.toString("hex"), encryptionKey: "x" });
  const b64 = twoFactorKeys({ twoFactorEncryptionKey: raw.toString("base64") });
  assert.equal(hex.source, "TWO_FACTOR_ENCRYPTION_KEY");
  assert.deepEqual(hex.encryption, b64.encryption);
  assert.equal(twoFactorKeys({ encryptionKey: "x" }).source, "ENCRYPTION_KEY");
  assert.notDeepEqual(hex.encryption, twoFactorKeys({ encryptionKey: "x" }).encryption);
  // The same variable gives the same keys (a restart still opens what was sealed); two uses, two keys.
  assert.deepEqual(twoFactorKeys({ encryptionKey: "x" }), twoFactorKeys({ encryptionKey: "x" }));
  assert.notDeepEqual(keys.encryption, keys.recovery);
  assert.equal(keys.encryption.length, 32);
  for (const bad of ["short", "ab".repeat(31), crypto.randomBytes(16).toString("base64")]) {
    assert.throws(() => parseMasterKey(bad), /TWO_FACTOR_ENCRYPTION_KEY must be 32 bytes/);
  }
  assert.throws(() => twoFactorKeys({}), /needs TWO_FACTOR_ENCRYPTION_KEY or ENCRYPTION_KEY/);
});
