"use strict";

/**
 * TOTP (RFC 6238 over RFC 4226 HOTP): HMAC-SHA1, 6 digits, 30-second steps, the parameters every
 * authenticator app supports. The algorithm, base32 and the otpauth:// URI are the maintained
 * `otpauth` library's; what is ours is the policy around it: the window of steps accepted, every
 * candidate compared in constant time, and the step returned so the caller can refuse a replay
 * (second-factor.js). Tested with the RFCs' vectors (cms/tests/.../two-factor/totp.test.js).
 */
const crypto = require("node:crypto");

const { HOTP, Secret, TOTP } = require("otpauth");

const PERIOD_SECONDS = 30;
const DIGITS = 6;
const ALGORITHM = "SHA1";
/** Steps accepted either side of the current one (clock drift, a code typed as it changed). */
const WINDOW = 1;
const SECRET_BYTES = 20;

/** RFC 4648 base32 without padding. */
function base32Encode(bytes) {
  return new Secret({ buffer: Uint8Array.from(bytes).buffer }).base32;
}

/** The bytes of a base32 string (case, whitespace and padding ignored); throws on another character. */
function base32Decode(text) {
  try {
    return Buffer.from(Secret.fromBase32(String(text).replace(/\s/g, "")).bytes);
  } catch (error) {
    throw new Error(`not a base32 string (${error.message})`, { cause: error });
  }
}

/** A new random secret, base32 (20 bytes: RFC 4226's recommended length for SHA-1). */
function newSecret() {
  return new Secret({ size: SECRET_BYTES }).base32;
}

const secretOf = (key) => new Secret({ buffer: Uint8Array.from(key).buffer });

/** RFC 4226 HOTP of a key (bytes) and counter, `digits` digits. */
function hotp(key, counter, digits = DIGITS) {
  return HOTP.generate({ secret: secretOf(key), algorithm: ALGORITHM, digits, counter });
}

/** The time step of a moment (ms since the epoch). */
function timeStep(nowMs) {
  return TOTP.counter({ period: PERIOD_SECONDS, timestamp: nowMs });
}

/** The TOTP code of a key at a moment. */
function totp(key, nowMs, digits = DIGITS) {
  return TOTP.generate({
    secret: secretOf(key),
    algorithm: ALGORITHM,
    digits,
    period: PERIOD_SECONDS,
    timestamp: nowMs,
  });
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
 * which step matched (otpauth's own validate() stops at the first match).
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
  return new TOTP({
    issuer,
    label: account,
    secret: Secret.fromBase32(secret),
    algorithm: ALGORITHM,
    digits: DIGITS,
    period: PERIOD_SECONDS,
  }).toString();
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
