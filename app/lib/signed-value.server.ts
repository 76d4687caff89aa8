import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto";

/**
 * The one way the site signs a value it hands to a browser and reads back (the bot check's form
 * token, the known-device cookie, the preview cookie), and checks the CMS's preview links
 * (app/lib/preview/preview-link.server.ts; cms/src/preview/signed-link.js makes them the same way): `<payload, base64url>.<expiry, Unix ms,
 * base36>.<HMAC-SHA256 of both, base64url>`.
 *
 * The HMAC key is derived per purpose (HKDF-SHA256 from the secret, info = the purpose): a value
 * signed for one purpose never verifies for another, even under the same secret, and the secret
 * itself signs nothing. The expiry is signed with the payload, so nobody can stretch it. The MAC is
 * compared with timingSafeEqual on two 32-byte buffers: a forger learns nothing from the time a
 * refusal takes.
 */

/** Every purpose a value is signed for; a new one gets its own name here (and so its own key). */
export type SignedValuePurpose =
  "auth-form-token/v1" | "known-device/v1" | "known-device-account/v1" | "preview/v2" | "preview-link/v1";

export interface VerifiedValue {
  payload: string;
  /** Unix ms after which the value is expired (a value is valid while now < expiresAt). */
  expiresAt: number;
}

const MAC_BYTES = 32;
/** Longer tokens are refused before any work (the longest payload today is ~120 characters). */
const MAX_TOKEN_LENGTH = 4096;
const TOKEN = /^([A-Za-z0-9_-]*)\.([0-9a-z]{1,11})\.([A-Za-z0-9_-]{43})$/;

/** The HMAC key for `purpose` under `secret`. Also for keyed hashes that are no signed value. */
export function purposeKey(secret: string, purpose: SignedValuePurpose): Buffer {
  return Buffer.from(hkdfSync("sha256", secret, "", purpose, MAC_BYTES));
}

const macOf = (key: Buffer, signed: string) => createHmac("sha256", key).update(signed).digest();

/** `payload` signed for `purpose`, valid until `expiresAt` (Unix ms). */
export function signValue(secret: string, purpose: SignedValuePurpose, payload: string, expiresAt: number): string {
  if (!Number.isSafeInteger(expiresAt) || expiresAt < 0) throw new RangeError(`Invalid expiry: ${expiresAt}`);
  const signed = `${Buffer.from(payload, "utf8").toString("base64url")}.${expiresAt.toString(36)}`;
  return `${signed}.${macOf(purposeKey(secret, purpose), signed).toString("base64url")}`;
}

/**
 * The payload and expiry of `token` when `secret` signed it for `purpose` and it has not expired
 * at `now`; undefined when it is missing, malformed, forged, tampered with, made for another
 * purpose or expired.
 */
export function verifyValue(
  secret: string,
  purpose: SignedValuePurpose,
  token: string | null | undefined,
  now = Date.now(),
): VerifiedValue | undefined {
  if (!token || token.length > MAX_TOKEN_LENGTH) return undefined;
  const match = TOKEN.exec(token);
  if (!match) return undefined;
  const [, encodedPayload = "", encodedExpiry = "", encodedMac = ""] = match;
  const given = Buffer.from(encodedMac, "base64url");
  const expected = macOf(purposeKey(secret, purpose), `${encodedPayload}.${encodedExpiry}`);
  // 43 base64url characters are 32 bytes, as timingSafeEqual requires equal lengths; the last one
  // carries 2 spare bits, so a MAC is taken only in its one canonical spelling.
  if (given.length !== MAC_BYTES || given.toString("base64url") !== encodedMac) return undefined;
  if (!timingSafeEqual(given, expected)) return undefined;
  const expiresAt = Number.parseInt(encodedExpiry, 36);
  if (!(now < expiresAt)) return undefined;
  return { payload: Buffer.from(encodedPayload, "base64url").toString("utf8"), expiresAt };
}
