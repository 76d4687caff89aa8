import { APIError } from "better-auth/api";

/** A failed auth step, with what the visitor is told and the HTTP status it answers with. */
export class AuthError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fieldErrors: Record<string, string> = {},
  ) {
    super(message);
    this.name = "AuthError";
  }
}

export const cmsUnavailable = () =>
  new AuthError(503, "CMS_UNAVAILABLE", "Accounts are unavailable right now. Please try again in a moment.");

export const tooManyRequests = (retryAfterSeconds: number) =>
  new AuthError(
    429,
    "RATE_LIMITED",
    `Too many attempts. Please wait ${retryAfterSeconds} seconds and try again.`,
  );

/** Runs an endpoint's work; an AuthError becomes better-auth's error answer (status, code, message, field errors). */
export async function asApiErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof AuthError) {
      throw new APIError(error.status as 400, { code: error.code, message: error.message, fieldErrors: error.fieldErrors });
    }
    throw error;
  }
}
