import type { RouterContextProvider } from "react-router";

import { parseLocalePath } from "../locale-path.ts";
import { localeConfigOf } from "../locales.server.ts";
import { readBodyWithLimit } from "@cms-site/page-cache";
import { configContext, logContext } from "../request-context.server.ts";
import { getAuthRateLimiter } from "./auth.server.ts";
import { AUTH_BODY_LIMIT, BOT_CHECKED_FORMS, FORM_BUDGETS, type RateLimitBudget } from "./endpoints.ts";
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
    const checked = BOT_CHECKED_FORMS[path];
    fields = await readGuardedForm(request, context, {
      budget: FORM_BUDGETS[path],
      bodyLimit: AUTH_BODY_LIMIT,
      formPath: path,
      botCheck: checked
        ? (typed) => typed.intent === undefined || !checked.exceptIntents.includes(typed.intent)
        : false,
    });
    const result = await call(fields);
    return { ok: true, ...result, fields };
  } catch (error) {
    const failed = toAuthError(error, context.get(logContext));
    if (!failed) throw error;
    const config = localeConfigOf(context.get(configContext));
    const locale = parseLocalePath(new URL(request.url).pathname, config)?.locale ?? config.defaultLocale;
    return { ok: false, failure: formFailure(failed, fieldsOf(error) ?? fields, locale) };
  }
}

/** The typed fields a bot-check refusal carries (readGuardedForm), so the form keeps them. */
export function fieldsOf(error: unknown): Record<string, string> | undefined {
  return error instanceof AuthError ? (error as AuthError & { fields?: Record<string, string> }).fields : undefined;
}

/** What a public form's post must pass before its fields are looked at (readGuardedForm). */
export interface GuardedFormOptions {
  /** The rate-limit budget the post spends. */
  budget: RateLimitBudget;
  /** The largest body read (a declared larger one is refused unread). */
  bodyLimit: number;
  /** What the form token was issued for (formTokenFor): a page's path, a content form's key (from its fields). */
  formPath: string | ((fields: Record<string, string>) => string);
  /** Whether this post carries the bot check (decided on its typed fields: an intent may skip it). */
  botCheck: boolean | ((fields: Record<string, string>) => boolean);
}

/**
 * The common path of every public form's post (the auth forms, the content forms of
 * app/lib/forms/): same-origin check, rate limit per client IP and budget, a bounded form body,
 * then the bot check (decision 0021): a filled honeypot, or a token that is missing, forged, for
 * another form or too old, is FORM_REJECTED; a post sooner than AUTH_FORM_MIN_FILL_MS after the
 * token was issued is FORM_TOO_FAST. Resolves with the typed fields (without the token, the
 * honeypot and React Router's `$` fields); throws an AuthError, or a BodyTooLargeError
 * (toAuthError turns both into the answer's code). The fields read so far are on
 * `error.fields`, so a refused form keeps what was typed.
 */
export async function readGuardedForm(
  request: Request,
  context: Readonly<RouterContextProvider>,
  options: GuardedFormOptions,
): Promise<Record<string, string>> {
  const config = context.get(configContext);
  assertSameOrigin(request, config.APP_PUBLIC_URL);
  await getAuthRateLimiter(context).hit(clientIpOf(request), options.budget);
  const body = await readBodyWithLimit(request, options.bodyLimit);
  const posted = Object.fromEntries([...new URLSearchParams(body)].filter(([name]) => !name.startsWith("$")));
  const { [FORM_TOKEN_FIELD]: token, [HONEYPOT_FIELD]: honeypot, ...fields } = posted;
  const checked = typeof options.botCheck === "function" ? options.botCheck(fields) : options.botCheck;
  if (!checked) return fields;
  const refuse = (code: "FORM_REJECTED" | "FORM_TOO_FAST") => Object.assign(new AuthError(code), { fields });
  if (honeypot !== undefined && honeypot.trim() !== "") throw refuse("FORM_REJECTED");
  const formPath = typeof options.formPath === "function" ? options.formPath(fields) : options.formPath;
  const verdict = checkFormToken(config.SESSION_AUTH_SECRET, formPath, token, {
    minFillMs: config.AUTH_FORM_MIN_FILL_MS,
  });
  if (verdict === "rejected") throw refuse("FORM_REJECTED");
  if (verdict === "too-fast") throw refuse("FORM_TOO_FAST");
  return fields;
}

/**
 * The form token a page's loader hands its AuthForm (`formToken` in the loader data), for the
 * form posted to `path`: every page whose form carries the bot check issues one on each render.
 */
export function formTokenFor(context: Readonly<RouterContextProvider>, path: AuthPagePath | string): string {
  return issueFormToken(context.get(configContext).SESSION_AUTH_SECRET, path);
}

/** A redirect that carries the auth endpoint's cookies. */
export function redirectWithCookies(location: string, from: Headers): Response {
  const headers = new Headers({ location });
  for (const cookie of from.getSetCookie()) headers.append("set-cookie", cookie);
  return new Response(null, { status: 303, headers });
}
