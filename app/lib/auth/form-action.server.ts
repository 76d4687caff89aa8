import type { RouterContextProvider } from "react-router";

import { parseLocalePath } from "../locale-path.ts";
import { localeConfigOf } from "../locales.server.ts";
import { readBodyWithLimit } from "../read-body.server.ts";
import { configContext } from "../request-context.server.ts";
import { getAuthRateLimiter } from "./auth.server.ts";
import { AUTH_BODY_LIMIT, BOT_CHECKED_FORMS, FORM_BUDGETS } from "./endpoints.ts";
import { AuthError, formFailure, toAuthError } from "./errors.server.ts";
import { FORM_TOKEN_FIELD, HONEYPOT_FIELD } from "./form-token.ts";
import { checkFormToken, issueFormToken } from "./form-token.server.ts";
import type { AuthPagePath } from "./paths.ts";
import { assertSameOrigin, clientIpOf } from "./request-guards.server.ts";

export type { AuthFormFailure } from "./errors.server.ts";

/**
 * The common path of every auth form action: same-origin check, rate limit per client IP
 * and path, a bounded form body, the bot check for the forms that carry it (BOT_CHECKED_FORMS:
 * the honeypot empty, the form token genuine, neither too young nor too old), then the
 * better-auth endpoint (through auth.api, which skips better-auth's own origin check and rate
 * limit: these are ours). A failure comes back
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
    const posted = Object.fromEntries([...new URLSearchParams(body)].filter(([name]) => !name.startsWith("$")));
    const { [FORM_TOKEN_FIELD]: token, [HONEYPOT_FIELD]: honeypot, ...typed } = posted;
    fields = typed;
    checkForBots(context, path, fields, token, honeypot);
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

/**
 * The bot check (docs/decisions/0021-bot-check-on-auth-forms.md): a filled honeypot, or a token
 * that is missing, forged, for another form or too old, is FORM_REJECTED; a post sooner than
 * AUTH_FORM_MIN_FILL_MS after the page was rendered is FORM_TOO_FAST. Either way nothing reaches
 * the CMS, and the page (rendered again, with a new token) keeps what was typed.
 */
function checkForBots(
  context: Readonly<RouterContextProvider>,
  path: AuthPagePath,
  fields: Record<string, string>,
  token: string | undefined,
  honeypot: string | undefined,
): void {
  const checked = BOT_CHECKED_FORMS[path];
  if (!checked || (fields.intent !== undefined && checked.exceptIntents.includes(fields.intent))) return;
  const config = context.get(configContext);
  if (honeypot !== undefined && honeypot.trim() !== "") throw new AuthError("FORM_REJECTED");
  const verdict = checkFormToken(config.SESSION_AUTH_SECRET, path, token, { minFillMs: config.AUTH_FORM_MIN_FILL_MS });
  if (verdict === "rejected") throw new AuthError("FORM_REJECTED");
  if (verdict === "too-fast") throw new AuthError("FORM_TOO_FAST");
}

/**
 * The form token a page's loader hands its AuthForm (`formToken` in the loader data), for the
 * form posted to `path`: every page whose form carries the bot check issues one on each render.
 */
export function formTokenFor(context: Readonly<RouterContextProvider>, path: AuthPagePath): string {
  return issueFormToken(context.get(configContext).SESSION_AUTH_SECRET, path);
}

/** A redirect that carries the auth endpoint's cookies. */
export function redirectWithCookies(location: string, from: Headers): Response {
  const headers = new Headers({ location });
  for (const cookie of from.getSetCookie()) headers.append("set-cookie", cookie);
  return new Response(null, { status: 303, headers });
}
