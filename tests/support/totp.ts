import { Secret, TOTP } from "otpauth";

/**
 * TOTP codes for tests, as an authenticator app makes them from the base32 secret the CMS returns
 * at setup (`POST /api/account-two-factor/setup`): RFC 6238 with HMAC-SHA1, 6 digits and 30-second
 * steps, by the maintained `otpauth` package. The CMS checks codes with the same library, so the
 * tests that use these codes show that the two sides agree (secret, digits, step, window); that
 * the library computes RFC 6238 is for the RFC's test vectors (appendix B) to show, not for them.
 */

export const TOTP_PERIOD_SECONDS = 30;

/** The 6-digit TOTP code of a base32 secret at `timeMs` (default: now). */
export function totpCode(base32Secret: string, timeMs: number = Date.now()): string {
  return TOTP.generate({
    secret: Secret.fromBase32(base32Secret),
    algorithm: "SHA1",
    digits: 6,
    period: TOTP_PERIOD_SECONDS,
    timestamp: timeMs,
  });
}

/** Milliseconds until the TOTP step of `timeMs` (default: now) ends. */
export function msLeftInStep(timeMs: number = Date.now()): number {
  return TOTP.remaining({ period: TOTP_PERIOD_SECONDS, timestamp: timeMs });
}
