import { createHash, createHmac } from "node:crypto";

import type { CookieNames } from "../cookie-names.ts";
import { cookieValueOf } from "../cookies.server.ts";
import { purposeKey, signValue, verifyValue } from "../signed-value.server.ts";

/**
 * "Known device" cookies, so that a lockout others cause does not lock the owner out
 * (docs/security.md, finding 20). The per-account lockout (rate-limit.server.ts) counts wrong
 * passwords per address, from anywhere: anyone who knows an address could keep it locked for good.
 * A browser that has signed in to an account carries a signed cookie naming it (as a keyed hash,
 * never the address); a password attempt from such a browser counts in a lockout of its own
 * (`lockoutKeyOf`), which strangers' guesses do not fill. A stolen cookie gains its thief no more
 * than its own five guesses per window.
 *
 * The value: up to MAX_ACCOUNTS account ids (HMAC of the address, 16 bytes, base64url, keyed for
 * `known-device-account/v1`), the latest first, joined by `~`, signed for `known-device/v1` with
 * the cookie's expiry (app/lib/signed-value.server.ts); both keys are derived from SESSION_AUTH_SECRET.
 * Its name is `names.knownDevice` (app/lib/cookie-names.ts): `__Host-` on https, so a sibling
 * subdomain cannot shadow it with one of its own and make the owner's browser a stranger again.
 */

/** A year: a device stays known while it signs in now and then. */
export const KNOWN_DEVICE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;
/** Accounts one browser is known for (a shared family computer). */
const MAX_ACCOUNTS = 5;

const ACCOUNT_ID = /^[A-Za-z0-9_-]{22}$/;

function accountIdOf(secret: string, email: string): string {
  return createHmac("sha256", purposeKey(secret, "known-device-account/v1"))
    .update(`account:${email.trim().toLowerCase()}`)
    .digest()
    .subarray(0, 16)
    .toString("base64url");
}

/** The account ids a cookie value vouches for: none when it is missing, garbled, forged or expired. */
function idsOf(secret: string, value: string | undefined, now: number): string[] {
  const verified = verifyValue(secret, "known-device/v1", value, now);
  if (!verified) return [];
  return verified.payload
    .split("~")
    .filter((id) => ACCOUNT_ID.test(id))
    .slice(0, MAX_ACCOUNTS);
}

type Names = Pick<CookieNames, "knownDevice">;

/** The cookie's value in a Cookie header. */
export function knownDeviceValueOf(cookieHeader: string | null | undefined, names: Names): string | undefined {
  return cookieValueOf(cookieHeader, names.knownDevice);
}

/** Whether the browser that sent `cookieHeader` has signed in to the account of `email` before. */
export function isKnownDevice(
  secret: string,
  cookieHeader: string | null | undefined,
  email: string,
  names: Names,
  now = Date.now(),
): boolean {
  return idsOf(secret, knownDeviceValueOf(cookieHeader, names), now).includes(accountIdOf(secret, email));
}

/**
 * The cookie's new value after a sign-in to `email`: that account first, then the others it named,
 * valid as long as the cookie (each sign-in renews it).
 */
export function knownDeviceValue(
  secret: string,
  cookieHeader: string | null | undefined,
  email: string,
  names: Names,
  now = Date.now(),
): string {
  const id = accountIdOf(secret, email);
  const others = idsOf(secret, knownDeviceValueOf(cookieHeader, names), now).filter((other) => other !== id);
  const ids = [id, ...others].slice(0, MAX_ACCOUNTS).join("~");
  return signValue(secret, "known-device/v1", ids, now + KNOWN_DEVICE_MAX_AGE_SECONDS * 1000);
}

/**
 * What the per-account lockout counts a password attempt under: the address, or, from a device
 * known for it, that address's known-device lockout (the hash keeps the two keys apart).
 */
export function lockoutKeyOf(email: string, knownDevice: boolean): string {
  if (!knownDevice) return email;
  return `known-device:${createHash("sha256").update(email.trim().toLowerCase()).digest("hex")}`;
}
