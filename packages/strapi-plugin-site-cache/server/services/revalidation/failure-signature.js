"use strict";

const { createHmac, hkdfSync, timingSafeEqual } = require("node:crypto");

/**
 * The signature of a recorded revalidation failure (docs/decisions/0030-signed-revalidation-failures.md).
 * The retry sends a row's payload with CMS_REVALIDATE_SECRET, so a row anyone else wrote (an editor
 * through the Content Manager before the type was hidden, a hand-made INSERT) would be a signed
 * takedown and CDN purge of whatever it names. The CMS signs `{ uid, payload }` when it records a
 * failure (failure-records.js) and the retry (retrying.js) sends only a row whose signature verifies.
 *
 * The key is derived (HKDF) from Strapi's APP_KEYS, not from CMS_REVALIDATE_SECRET: a failure recorded
 * while that secret was wrong (401) must still verify once an operator fixed it. Signed with the first
 * key, verified against each, so adding a key in front of APP_KEYS rotates without losing rows.
 *
 * What is signed is canonical JSON (object keys sorted at every level): PostgreSQL's jsonb does
 * not keep key order, so the stored payload may come back with its keys reordered.
 */

const INFO = "site-cache revalidation-failure signature v1";

const deriveKey = (appKey) => Buffer.from(hkdfSync("sha256", String(appKey), "", INFO, 32));

/** JSON with every object's keys in sorted order: the same text for the same value, however stored. */
function canonicalJson(value) {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object")
    return `{${Object.keys(value)
      .filter((key) => value[key] !== undefined)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`)
      .join(",")}}`;
  return JSON.stringify(value) ?? "null";
}

const mac = (key, uid, payload) => createHmac("sha256", key).update(canonicalJson({ uid, payload })).digest();

/**
 * `sign(uid, payload)`: the hex signature to store with the row; `verify(row)`: whether the row's
 * uid and payload carry a signature made with one of the keys (compared in constant time). Throws
 * at creation without a key: Strapi itself refuses to start without APP_KEYS.
 */
function createFailureSigner(appKeys) {
  const keys = (Array.isArray(appKeys) ? appKeys : []).filter((key) => typeof key === "string" && key).map(deriveKey);
  return {
    sign(uid, payload) {
      if (keys.length === 0) throw new Error("no APP_KEYS to sign the revalidation failure with");
      return mac(keys[0], uid, payload).toString("hex");
    },
    verify(row) {
      if (typeof row?.signature !== "string" || !/^[0-9a-f]{64}$/.test(row.signature)) return false;
      const given = Buffer.from(row.signature, "hex");
      // Every key is tried, whatever matched: the time taken says nothing about which one did.
      let valid = false;
      for (const key of keys) valid = timingSafeEqual(mac(key, row.uid, row.payload), given) || valid;
      return valid;
    },
  };
}

module.exports = { createFailureSigner, canonicalJson };
