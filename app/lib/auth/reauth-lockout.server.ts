import { AuthError } from "./errors.server.ts";
import type { AccountLockout } from "./rate-limit.server.ts";

/**
 * Wrong current passwords typed on the account page (change password, delete the account,
 * change the email, two-factor) count per account too, not only against the per-IP budget: the
 * same lockout as sign-in (createAccountLockout, rate-limit.server.ts), keyed by the CMS user id.
 * Five wrong ones within 15 minutes lock these forms of that account for 60 s, doubling up to
 * an hour; sign-in is not affected (its keys are addresses). A session thief who guesses the
 * password to take the account over (delete it, move its email) gets five guesses per lock,
 * however many are sent at once (each reserves its attempt before the CMS is asked).
 */

/** The lockout key of an account's re-authentication: its CMS user id (never an address, so never a sign-in key). */
export function reauthLockoutKey(userId: string): string {
  return `cms-user-id:${userId}`;
}

/**
 * What counts as a guess: a wrong current password, and a check the CMS did not answer in time
 * (CMS_UNAVAILABLE). Unlike a sign-in, these calls act on a right password (a new password,
 * a new address, a deleted account) whether or not the site hears the answer: given back, a
 * slowed-down CMS would let a session thief guess without limit, and win unseen.
 */
const countsAsGuess = (error: unknown) =>
  error instanceof AuthError && (error.code === "WRONG_CURRENT_PASSWORD" || error.code === "CMS_UNAVAILABLE");

/**
 * Runs a CMS call that checks the account's current password as one attempt of the account's
 * lockout: refused at once (429) while the account is locked or its attempts are taken; a
 * WRONG_CURRENT_PASSWORD or an unanswered check counts; success clears the count; other
 * refusals (a new password like the old one) give the attempt back. Without a password (an
 * account without one re-authenticates by a recent provider sign-in) nothing counts.
 */
export async function withPasswordLockout<T>(
  lockout: AccountLockout | undefined,
  userId: string,
  password: string | undefined,
  call: () => Promise<T>,
): Promise<T> {
  if (!lockout || !password) return call();
  return lockout.attempt(reauthLockoutKey(userId), call, countsAsGuess);
}
