import { AuthError } from "./errors.server.ts";
import type { AccountLockout } from "./rate-limit.server.ts";

/**
 * Wrong current passwords typed on the account page (change password, delete the account,
 * change the email) count per account too, not only against the per-IP budget: the same
 * lockout as sign-in (createAccountLockout, rate-limit.server.ts), keyed by the CMS user id.
 * Five wrong ones within 15 minutes lock these forms of that account for 60 s, doubling up to
 * an hour; sign-in is not affected (its keys are addresses). A session thief who guesses the
 * password to take the account over (delete it, move its email) gets five guesses per lock.
 */

/** The lockout key of an account's re-authentication: its CMS user id (never an address, so never a sign-in key). */
export function reauthLockoutKey(userId: string): string {
  return `cms-user-id:${userId}`;
}

/**
 * Runs a CMS call that checks the account's current password: refused at once (429) while the
 * account is locked; a WRONG_CURRENT_PASSWORD counts; success clears the count. Without a
 * password (an account without one re-authenticates by a recent provider sign-in) nothing counts.
 */
export async function withPasswordLockout<T>(
  lockout: AccountLockout | undefined,
  userId: string,
  password: string | undefined,
  call: () => Promise<T>,
): Promise<T> {
  if (!lockout || !password) return call();
  const key = reauthLockoutKey(userId);
  await lockout.check(key);
  try {
    const result = await call();
    await lockout.succeeded(key);
    return result;
  } catch (error) {
    if (error instanceof AuthError && error.code === "WRONG_CURRENT_PASSWORD") await lockout.failed(key);
    throw error;
  }
}
