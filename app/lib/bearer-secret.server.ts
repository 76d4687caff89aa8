import { createHash, timingSafeEqual } from "node:crypto";

/**
 * Whether an `Authorization` header carries `Bearer <secret>`. Both sides are hashed
 * first so the comparison takes the same time whatever the lengths, and timingSafeEqual
 * compares the digests in constant time.
 */
export function bearerMatches(authorization: string | null | undefined, secret: string): boolean {
  const match = /^Bearer (.+)$/.exec(authorization ?? "");
  const given = createHash("sha256")
    .update(match?.[1] ?? "")
    .digest();
  const expected = createHash("sha256").update(secret).digest();
  return timingSafeEqual(given, expected) && match !== null;
}
