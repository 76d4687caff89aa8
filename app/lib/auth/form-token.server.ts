import { signValue, verifyValue } from "../signed-value.server.ts";

/**
 * The form token of the bot check (docs/decisions/0021-bot-check-on-auth-forms.md): the form's
 * path, signed (app/lib/signed-value.server.ts, purpose `auth-form-token/v1`, a key derived from
 * SESSION_AUTH_SECRET) with an expiry a day after the page was rendered. Stateless: any instance
 * with the same secret checks any instance's token, and nothing is stored. A post whose token is
 * younger than the minimum fill time came from a script, not from a person reading the form; one
 * that is missing, garbled, forged, made for another form or a day old is refused too.
 */

/** How long a rendered form stays sendable: a tab left open overnight still works. */
export const FORM_TOKEN_MAX_AGE_MS = 24 * 60 * 60 * 1000;

/** How far in the future a token may look (several instances' clocks differ a little). */
const CLOCK_SKEW_MS = 5_000;

export type FormTokenVerdict = "ok" | "too-fast" | "rejected";

/** A token for the form posted to `formPath` (an AuthPagePath, `/register`), issued now. */
export function issueFormToken(secret: string, formPath: string, now = Date.now()): string {
  return signValue(secret, "auth-form-token/v1", formPath, now + FORM_TOKEN_MAX_AGE_MS);
}

/** The verdict on a posted token for the form at `formPath`. */
export function checkFormToken(
  secret: string,
  formPath: string,
  token: string | undefined,
  options: { minFillMs: number; now?: number },
): FormTokenVerdict {
  const now = options.now ?? Date.now();
  const verified = verifyValue(secret, "auth-form-token/v1", token, now);
  if (verified?.payload !== formPath) return "rejected";
  const age = now - (verified.expiresAt - FORM_TOKEN_MAX_AGE_MS);
  if (age < -CLOCK_SKEW_MS) return "rejected";
  return age < options.minFillMs ? "too-fast" : "ok";
}
