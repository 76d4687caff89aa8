import type { AuthErrorCode } from "../../app/lib/auth/error-codes.ts";
import { AuthError } from "../../app/lib/auth/errors.server.ts";

/** The code of the AuthError that `promise` rejects with; anything else (or no rejection) fails the test. */
export async function authErrorCode(promise: Promise<unknown>): Promise<AuthErrorCode> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  if (!(error instanceof AuthError)) throw new Error(`expected an AuthError, got ${String(error)}`);
  return error.code;
}
