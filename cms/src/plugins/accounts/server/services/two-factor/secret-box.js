"use strict";

/**
 * The two-factor keys and the encryption of TOTP secrets at rest (AES-256-GCM).
 *
 * The master key is TWO_FACTOR_ENCRYPTION_KEY (32 bytes, as 64 hex digits or base64) when set,
 * else derived with HKDF-SHA256 from ENCRYPTION_KEY: Strapi's own encryption secret, which
 * scripts/ensure-env.js generates into cms/.env on a first start outside production and which
 * production refuses to start without. From the master key, HKDF derives two keys, one per use:
 * one encrypts the secrets, one keys the recovery codes' hashes (./recovery-codes.js).
 *
 * A sealed value is `v1.<base64url of iv (12 bytes) | tag (16 bytes) | ciphertext>`, a new random
 * IV each time. The additional data binds it to its user and field: a value copied to another
 * user or field does not open.
 */
const crypto = require("node:crypto");

const VERSION = "v1";
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;
const SALT = "account-two-factor";

/** The 32 bytes of TWO_FACTOR_ENCRYPTION_KEY (64 hex digits, or base64 / base64url of 32 bytes); throws otherwise. */
function parseMasterKey(value) {
  const text = String(value).trim();
  if (/^[0-9a-fA-F]{64}$/.test(text)) return Buffer.from(text, "hex");
  if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) {
    const bytes = Buffer.from(text.replace(/-/g, "+").replace(/_/g, "/"), "base64");
    if (bytes.length === KEY_BYTES) return bytes;
  }
  throw new Error(
    "[cms] TWO_FACTOR_ENCRYPTION_KEY must be 32 bytes, written as 64 hex digits or as base64 " +
      "(e.g. `openssl rand -base64 32`). Unset, the key is derived from ENCRYPTION_KEY.",
  );
}

const derive = (master, info) => Buffer.from(crypto.hkdfSync("sha256", master, SALT, info, KEY_BYTES));

/**
 * The keys from the plugin's configuration: `{ encryption, recovery, source }` (source names the
 * variable the master key came from). Throws when neither key is usable.
 *
 * @param {{ twoFactorEncryptionKey?: string, encryptionKey?: string }} config
 */
function twoFactorKeys({ twoFactorEncryptionKey = "", encryptionKey = "" } = {}) {
  let master;
  let source;
  if (twoFactorEncryptionKey.trim()) {
    master = parseMasterKey(twoFactorEncryptionKey);
    source = "TWO_FACTOR_ENCRYPTION_KEY";
  } else if (encryptionKey.trim()) {
    master = Buffer.from(encryptionKey, "utf8");
    source = "ENCRYPTION_KEY";
  } else {
    throw new Error("[cms] Two-factor authentication needs TWO_FACTOR_ENCRYPTION_KEY or ENCRYPTION_KEY.");
  }
  return {
    encryption: derive(master, "totp-secret-encryption v1"),
    recovery: derive(master, "recovery-code-hashes v1"),
    source,
  };
}

/** Encrypts `plaintext` (a string) for `context` (e.g. "user:7:twoFactorSecret"). */
function seal(key, plaintext, context) {
  const iv = crypto.randomBytes(IV_BYTES);
  const cipher = crypto.createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(context, "utf8"));
  const ciphertext = Buffer.concat([cipher.update(String(plaintext), "utf8"), cipher.final()]);
  return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString("base64url")}`;
}

/** The plaintext of a sealed value; throws when it was changed, or sealed with another key or context. */
function open(key, sealed, context) {
  const [version, body, ...rest] = String(sealed).split(".");
  if (version !== VERSION || !body || rest.length > 0) throw new Error("not a sealed value");
  const bytes = Buffer.from(body, "base64url");
  if (bytes.length <= IV_BYTES + TAG_BYTES) throw new Error("not a sealed value");
  const decipher = crypto.createDecipheriv("aes-256-gcm", key, bytes.subarray(0, IV_BYTES));
  decipher.setAAD(Buffer.from(context, "utf8"));
  decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString("utf8");
}

module.exports = { twoFactorKeys, parseMasterKey, seal, open };
