import { createHmac } from "node:crypto";

/**
 * TOTP codes for tests (RFC 6238: HMAC-SHA1, 6 digits, 30-second steps), computed from the
 * base32 secret the CMS returns at setup (`POST /api/account-two-factor/setup`). Written apart
 * from the CMS's own implementation (cms/src/api/account-two-factor/lib/totp.js) on purpose: a
 * test that used the CMS's code to make its codes would not notice that code going wrong.
 */

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
export const TOTP_PERIOD_SECONDS = 30;

/** The bytes of an RFC 4648 base32 string (case, spaces and padding ignored). */
export function base32Bytes(secret: string): Buffer {
  const clean = secret.toUpperCase().replace(/[\s=]/g, "");
  let bits = "";
  for (const char of clean) {
    const value = BASE32.indexOf(char);
    if (value < 0) throw new Error(`totp: not a base32 character: ${JSON.stringify(char)}`);
    bits += value.toString(2).padStart(5, "0");
  }
  const bytes: number[] = [];
  for (let i = 0; i + 8 <= bits.length; i += 8) bytes.push(parseInt(bits.slice(i, i + 8), 2));
  return Buffer.from(bytes);
}

/** The TOTP code of a key (raw bytes) at a time (ms since the epoch), with `digits` digits. */
export function totpCodeOfKey(key: Buffer, timeMs: number = Date.now(), digits = 6): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(timeMs / 1000 / TOTP_PERIOD_SECONDS)));
  const mac = createHmac("sha1", key).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, "0");
}

/** The 6-digit TOTP code of a base32 secret at `timeMs` (default: now). */
export function totpCode(base32Secret: string, timeMs: number = Date.now()): string {
  return totpCodeOfKey(base32Bytes(base32Secret), timeMs);
}
