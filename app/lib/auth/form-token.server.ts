import { createHmac, hkdfSync } from "node:crypto";

import { secretMatches } from "../bearer-secret.server.ts";

/**
 * The form token of the bot check (docs/decisions/0021-bot-check-on-auth-forms.md): the time the
 * page was rendered and an HMAC over that time and the form's path, with a key derived from
 * SESSION_AUTH_SECRET. Stateless: any instance with the same secret checks any instance's token,
 * and nothing is stored. A post whose token is younger than the minimum fill time came from a
 * script, not from a person reading the form; one that is missing, garbled, forged, made for
 * another form or older than a day is refused too.
 */

/** How long a rendered form stays sendable: a tab left open overnight still works. */
export const FORM_TOKEN_MAX_AGE_MS = 24 * 60 * 60 * 1000;

/** How far in the future a token may look (several instances' clocks differ a little). */
const CLOCK_SKEW_MS = 5_000;

export type FormTokenVerdict = "ok" | "too-fast" | "rejected";

/** The HMAC key: derived, so the session secret itself signs nothing but sessions. */
function keyOf(secret: string): Buffer {
  return Buffer.from(hkdfSync("sha256", secret, "", "auth-form-token/v1", 32));
}

function macOf(secret: string, formPath: string, issuedAt: number): string {
  return createHmac("sha256", keyOf(secret)).update(`${formPath}\n${issuedAt}`).digest("base64url");
}

/** A token for the form posted to `formPath` (an AuthPagePath, `/register`), issued now. */
export function issueFormToken(secret: string, formPath: string, now = Date.now()): string {
  return `${now.toString(36)}.${macOf(secret, formPath, now)}`;
}

/** The verdict on a posted token for the form at `formPath`. */
export function checkFormToken(
  secret: string,
  formPath: string,
  token: string | undefined,
  options: { minFillMs: number; now?: number },
): FormTokenVerdict {
  const match = /^([0-9a-z]{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token ?? "");
  if (!match) return "rejected";
  const issuedAt = Number.parseInt(match[1] ?? "", 36);
  if (!secretMatches(match[2], macOf(secret, formPath, issuedAt))) return "rejected";
  const age = (options.now ?? Date.now()) - issuedAt;
  if (age < -CLOCK_SKEW_MS || age > FORM_TOKEN_MAX_AGE_MS) return "rejected";
  return age < options.minFillMs ? "too-fast" : "ok";
}
