import type { RouterContextProvider } from "react-router";

import { parseLocalePath } from "../locale-path.ts";
import { localeConfigOf } from "../locales.server.ts";
import { readBodyWithLimit } from "../read-body.server.ts";
import { configContext } from "../request-context.server.ts";
import { getAuthRateLimiter } from "./auth.server.ts";
import { AUTH_BODY_LIMIT, FORM_BUDGETS } from "./endpoints.ts";
import { formFailure, toAuthError } from "./errors.server.ts";
import type { AuthPagePath } from "./paths.ts";
import { assertSameOrigin, clientIpOf } from "./request-guards.server.ts";

export type { AuthFormFailure } from "./errors.server.ts";

/**
 * The common path of every auth form action: same-origin check, rate limit per client IP
 * and path, a bounded form body, then the better-auth endpoint (through auth.api, which
 * skips better-auth's own origin check and rate limit: these are ours). A failure comes back
 * as data with the table's status, code and message (errors.server.ts, error-codes.ts), the
 * same the JSON endpoint answers, in the words of the page's locale (`/de/sign-in`: German);
 * success hands the endpoint's Set-Cookie headers on.
 */
export async function runAuthForm<T>(
  request: Request,
  context: Readonly<RouterContextProvider>,
  path: AuthPagePath,
  call: (fields: Record<string, string>) => Promise<{ headers: Headers; response: T }>,
): Promise<
  | { ok: true; headers: Headers; response: T; fields: Record<string, string> }
  | { ok: false; failure: ReturnType<typeof formFailure> }
> {
  let fields: Record<string, string> = {};
  try {
    assertSameOrigin(request, context.get(configContext).APP_PUBLIC_URL);
    await getAuthRateLimiter(context).hit(clientIpOf(request), FORM_BUDGETS[path]);
    const body = await readBodyWithLimit(request, AUTH_BODY_LIMIT);
    fields = Object.fromEntries([...new URLSearchParams(body)].filter(([name]) => !name.startsWith("$")));
    const result = await call(fields);
    return { ok: true, ...result, fields };
  } catch (error) {
    const failed = toAuthError(error);
    if (!failed) throw error;
    const config = localeConfigOf(context.get(configContext));
    const locale = parseLocalePath(new URL(request.url).pathname, config)?.locale ?? config.defaultLocale;
    return { ok: false, failure: formFailure(failed, fields, locale) };
  }
}

/** A redirect that carries the auth endpoint's cookies. */
export function redirectWithCookies(location: string, from: Headers): Response {
  const headers = new Headers({ location });
  for (const cookie of from.getSetCookie()) headers.append("set-cookie", cookie);
  return new Response(null, { status: 303, headers });
}
