import { isAPIError } from "better-auth/api";
import { data } from "react-router";

import { getEnv } from "../env.server.ts";
import { BodyTooLargeError, readBodyWithLimit } from "../read-body.server.ts";
import { getAuthRateLimiter } from "./auth.server.ts";
import { AUTH_BODY_LIMIT, FORM_BUDGETS } from "./endpoints.ts";
import { AuthError } from "./errors.server.ts";
import type { AuthPagePath } from "./paths.ts";
import { assertSameOrigin, clientIpOf } from "./request-guards.server.ts";

/** What a failed auth form shows: a message, errors next to fields, the values to keep. */
export interface AuthFormFailure {
  ok: false;
  message: string;
  fieldErrors: Record<string, string>;
  values: Record<string, string>;
}

/** Never sent back to the page, whatever happens. */
const SECRET_FIELDS = new Set(["password", "passwordConfirmation", "currentPassword", "code"]);

function failure(status: number, message: string, fieldErrors: Record<string, string>, fields: Record<string, string>) {
  const values = Object.fromEntries(Object.entries(fields).filter(([name]) => !SECRET_FIELDS.has(name)));
  return data<AuthFormFailure>({ ok: false, message, fieldErrors, values }, { status });
}

/**
 * The common path of every auth form action: same-origin check, rate limit per client IP
 * and path, a bounded form body, then the better-auth endpoint (through auth.api, which
 * skips better-auth's own origin check and rate limit: these are ours). Errors come back as
 * data with the right status; success hands the endpoint's Set-Cookie headers on.
 */
export async function runAuthForm<T>(
  request: Request,
  path: AuthPagePath,
  call: (fields: Record<string, string>) => Promise<{ headers: Headers; response: T }>,
): Promise<
  { ok: true; headers: Headers; response: T; fields: Record<string, string> } | { ok: false; failure: ReturnType<typeof failure> }
> {
  let fields: Record<string, string> = {};
  try {
    assertSameOrigin(request, getEnv().APP_PUBLIC_URL);
    await getAuthRateLimiter().hit(clientIpOf(request), FORM_BUDGETS[path]);
    const body = await readBodyWithLimit(request, AUTH_BODY_LIMIT);
    fields = Object.fromEntries([...new URLSearchParams(body)].filter(([name]) => !name.startsWith("$")));
    const result = await call(fields);
    return { ok: true, ...result, fields };
  } catch (error) {
    if (error instanceof BodyTooLargeError) return { ok: false, failure: failure(413, "This form is too large.", {}, {}) };
    if (error instanceof AuthError) {
      return { ok: false, failure: failure(error.status, error.message, error.fieldErrors, fields) };
    }
    if (isAPIError(error)) {
      const body = (error.body ?? {}) as { message?: string; fieldErrors?: Record<string, string> };
      return {
        ok: false,
        failure: failure(error.statusCode, body.message ?? "Something went wrong.", body.fieldErrors ?? {}, fields),
      };
    }
    throw error;
  }
}

/** A redirect that carries the auth endpoint's cookies. */
export function redirectWithCookies(location: string, from: Headers): Response {
  const headers = new Headers({ location });
  for (const cookie of from.getSetCookie()) headers.append("set-cookie", cookie);
  return new Response(null, { status: 303, headers });
}
