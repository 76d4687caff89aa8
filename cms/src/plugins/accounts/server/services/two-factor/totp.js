"use strict";

/**
 * TOTP (RFC 6238 over RFC 4226 HOTP): HMAC-SHA1, 6 digits, 30-second steps, the parameters every
 * authenticator app supports. Hand-written on node:crypto (docs/decisions/0020, "Two-factor"),
 * tested with the RFC's vectors (totp.test.js).
 */
const crypto = require("node:crypto");

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
const PERIOD_SECONDS = 30;
const DIGITS = 6;
/** Steps accepted either side of the current one (clock drift, a code typed as it changed). */
const WINDOW = 1;
const SECRET_BYTES = 20;

/** RFC 4648 base32 without padding. */
function base32Encode(bytes) {
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

/** The bytes of a base32 string (case, spaces and padding ignored); throws on another character. */
function base32Decode(text) {
  const clean = String(text).toUpperCase().replace(/[\s=]/g, "");
  let bits = 0;
  let value = 0;
  const out = [];
  for (const char of clean) {
    const index = BASE32.indexOf(char);
    if (index < 0) throw new Error("not a base32 string");
    value = ((value << 5) | index) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** A new random secret, base32 (20 bytes: RFC 4226's recommended length for SHA-1). */
function newSecret() {
  return base32Encode(crypto.randomBytes(SECRET_BYTES));
}

/** RFC 4226 HOTP of a key (bytes) and counter, `digits` digits. */
function hotp(key, counter, digits = DIGITS) {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = crypto.createHmac("sha1", key).update(message).digest();
  const offset = mac[mac.length - 1] & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, "0");
}

/** The time step of a moment (ms since the epoch). */
function timeStep(nowMs) {
  return Math.floor(nowMs / 1000 / PERIOD_SECONDS);
}

/** The TOTP code of a key at a moment. */
function totp(key, nowMs, digits = DIGITS) {
  return hotp(key, timeStep(nowMs), digits);
}

/** Whether a string looks like a TOTP code (6 digits, spaces ignored), and that code. */
function totpCodeOf(input) {
  if (typeof input !== "string") return null;
  const code = input.replace(/\s/g, "");
  return /^\d{6}$/.test(code) ? code : null;
}

/**
 * The time step whose code `code` is, among the current step and WINDOW steps either side, or
 * null. Every candidate is compared (in constant time), so the time taken says nothing about
 * which step matched.
 */
function matchingStep(key, code, nowMs) {
  const current = timeStep(nowMs);
  const given = Buffer.from(String(code));
  let found = null;
  for (let step = current - WINDOW; step <= current + WINDOW; step += 1) {
    const expected = Buffer.from(hotp(key, step));
    if (expected.length === given.length && crypto.timingSafeEqual(expected, given) && found === null) found = step;
  }
  return found;
}

/** The otpauth:// URI an authenticator app reads from the QR code. */
function otpauthUri({ issuer, account, secret }) {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`;
  const query = [
    `secret=${secret}`,
    `issuer=${encodeURIComponent(issuer)}`,
    "algorithm=SHA1",
    `digits=${DIGITS}`,
    `period=${PERIOD_SECONDS}`,
  ].join("&");
  return `otpauth://totp/${label}?${query}`;
}

module.exports = {
  PERIOD_SECONDS,
  DIGITS,
  WINDOW,
  SECRET_BYTES,
  base32Encode,
  base32Decode,
  newSecret,
  hotp,
  timeStep,
  totp,
  totpCodeOf,
  matchingStep,
  otpauthUri,
};
