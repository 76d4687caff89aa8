"use strict";

/**
 * Recovery codes: 10 per enrolment, `XXXXX-XXXXX` from 32 characters without the ambiguous
 * 0/O and 1/I (50 random bits each). Only their hashes are stored: HMAC-SHA256 keyed with a key
 * derived from the CMS's secret (./secret-box.js) over the user's id and the code. A fast hash
 * is enough because the code is random and long (no dictionary to try, unlike a password), and
 * the key means a copy of the database alone allows no offline search at all; the user's id in
 * the hash stops a hash copied to another user from working there.
 */
const crypto = require("node:crypto");

const ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ";
const CODE_COUNT = 10;
const GROUP = 5;
const LENGTH = 2 * GROUP;

function generateRecoveryCodes(count = CODE_COUNT) {
  const codes = new Set();
  while (codes.size < count) {
    let raw = "";
    for (let i = 0; i < LENGTH; i += 1) raw += ALPHABET[crypto.randomInt(ALPHABET.length)];
    codes.add(`${raw.slice(0, GROUP)}-${raw.slice(GROUP)}`);
  }
  return [...codes];
}

/**
 * A typed recovery code in its stored form (upper case, no dash or spaces), or null when it
 * cannot be one (wrong length or a character outside the alphabet).
 */
function normaliseRecoveryCode(input) {
  if (typeof input !== "string") return null;
  const code = input.replace(/[\s-]/g, "").toUpperCase();
  if (code.length !== LENGTH) return null;
  for (const char of code) if (!ALPHABET.includes(char)) return null;
  return code;
}

/** The stored hash of a (normalised) code of a user. */
function hashRecoveryCode(key, userId, normalised) {
  return crypto.createHmac("sha256", key).update(`${userId}:${normalised}`).digest("hex");
}

/** A stored list of hashes, read defensively. */
function storedHashes(value) {
  return Array.isArray(value) ? value.filter((hash) => typeof hash === "string" && /^[0-9a-f]{64}$/.test(hash)) : [];
}

/**
 * The index of a typed code's hash in the stored list, or -1. Compares every entry in constant
 * time (how long it takes says nothing about which entry matched).
 */
function findRecoveryCode(key, userId, input, stored) {
  const code = normaliseRecoveryCode(input);
  if (code === null) return -1;
  const given = Buffer.from(hashRecoveryCode(key, userId, code), "hex");
  let found = -1;
  storedHashes(stored).forEach((hash, index) => {
    if (crypto.timingSafeEqual(Buffer.from(hash, "hex"), given) && found < 0) found = index;
  });
  return found;
}

module.exports = {
  ALPHABET,
  CODE_COUNT,
  generateRecoveryCodes,
  normaliseRecoveryCode,
  hashRecoveryCode,
  storedHashes,
  findRecoveryCode,
};
