import type { RouterContextProvider } from "react-router";

import { localeConfigOf } from "../locales.server.ts";
import { configContext } from "../request-context.server.ts";
import { AuthError } from "./errors.server.ts";
import { authPath } from "./paths.ts";
import { setCookiesOfError } from "./plugins/two-factor.server.ts";
import { twoFactorCookieOf, twoFactorCookieSetIn, twoFactorSetCookie } from "./two-factor-cookies.server.ts";

/** The form side of two-factor sign-in: the pending sign-in cookie (two-factor-cookies.server.ts). */

const secureOf = (context: Readonly<RouterContextProvider>) =>
  context.get(configContext).APP_PUBLIC_URL.startsWith("https:");

/**
 * In a form action's call to a password step (sign-in, password reset): its TWO_FACTOR_REQUIRED
 * refusal becomes the way on to the second step's page (keeping `redirectTo`), with the pending
 * cookie the step set (a call through auth.api sends no cookie to the browser). Any other error: null.
 */
export function secondStepOf(
  error: unknown,
  context: Readonly<RouterContextProvider>,
  locale: string,
  redirectTo: string,
): { headers: Headers; response: { location: string } } | null {
  if (!(error instanceof AuthError) || error.code !== "TWO_FACTOR_REQUIRED") return null;
  const secure = secureOf(context);
  const sealed = twoFactorCookieSetIn(setCookiesOfError(error), "pending", secure);
  if (!sealed) throw new AuthError("UNEXPECTED", { cause: new Error("the password step set no pending cookie") });
  const headers = new Headers();
  headers.append("set-cookie", twoFactorSetCookie("pending", sealed, secure));
  const page = authPath("twoFactor", locale, localeConfigOf(context.get(configContext)));
  return { headers, response: { location: `${page}?redirectTo=${encodeURIComponent(redirectTo)}` } };
}

/** The sealed pending sign-in a request to the second step's page carries (null: none). */
export function pendingCookieOf(request: Request, context: Readonly<RouterContextProvider>): string | null {
  return twoFactorCookieOf(request.headers.get("cookie"), "pending", secureOf(context));
}

/** The Set-Cookie header that ends the pending sign-in. */
export function expirePendingCookie(context: Readonly<RouterContextProvider>): string {
  return twoFactorSetCookie("pending", null, secureOf(context));
}
