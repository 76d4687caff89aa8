"use strict";

const crypto = require("node:crypto");

/**
 * Checks `Authorization: Bearer <secret>` against the configured secret in constant time:
 * both sides are hashed with SHA-256 first, so the comparison is always between two 32-byte
 * buffers and neither the length nor the content of the secret leaks through timing.
 *
 * @param {string | string[] | undefined} authorization  the request's Authorization header
 * @param {string | undefined} secret                     CMS_OAUTH_SYNC_SECRET
 * @returns {'ok' | 'unconfigured' | 'missing' | 'invalid'}
 *   unconfigured: no secret set on the CMS (→ 503); missing: no Bearer credentials (→ 401);
 *   invalid: wrong secret (→ 401).
 */
function checkBearerSecret(authorization, secret) {
  if (typeof secret !== "string" || secret.trim() === "") return "unconfigured";
  const header = Array.isArray(authorization) ? authorization[0] : authorization;
  const match = typeof header === "string" ? /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header) : null;
  // Still hash and compare something, so "missing" and "invalid" cost the same.
  const given = match ? match[1] : "";
  const equal = sameSecret(given, secret);
  if (!match) return "missing";
  return equal ? "ok" : "invalid";
}

/**
 * Whether `given` is the configured `secret` (trimmed), in constant time: SHA-256 of both, then
 * crypto.timingSafeEqual on the two 32-byte digests. Also used by src/account-api-guard.
 */
function sameSecret(given, secret) {
  return crypto.timingSafeEqual(sha256(given), sha256(secret.trim()));
}

const sha256 = (value) => crypto.createHash("sha256").update(value, "utf8").digest();

module.exports = { checkBearerSecret, sameSecret };
