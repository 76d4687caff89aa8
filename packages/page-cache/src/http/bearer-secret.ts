import { createHash, timingSafeEqual } from "node:crypto";

/**
 * Whether `given` is `secret`. Both sides are hashed first so the comparison takes the same
 * time whatever the lengths, and timingSafeEqual compares the digests in constant time. Exported:
 * a site's own bearer headers and secrets can use it too.
 */
export function secretMatches(given: string | null | undefined, secret: string): boolean {
  const a = createHash("sha256")
    .update(given ?? "")
    .digest();
  const b = createHash("sha256").update(secret).digest();
  return timingSafeEqual(a, b) && typeof given === "string";
}

/** Whether an `Authorization` header carries `Bearer <secret>`, compared as secretMatches does. */
export function bearerMatches(authorization: string | null | undefined, secret: string): boolean {
  const match = /^Bearer (.+)$/.exec(authorization ?? "");
  return secretMatches(match?.[1] ?? "", secret) && match !== null;
}
