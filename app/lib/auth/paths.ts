import { localizedPath, type LocaleConfig } from "../locale-path.ts";

/**
 * The auth pages, once. Each has two spellings: the unprefixed one (`/sign-in`, the default
 * locale) and one under a locale's prefix (`/de/sign-in`; app/routes.ts routes `:lang/sign-in`,
 * and the page answers 404 when `lang` is not a configured locale). They are personal, so
 * server/app.ts never caches either spelling (isAuthPagePath).
 */
export const AUTH_PAGES = {
  signIn: "/sign-in",
  register: "/register",
  forgotPassword: "/forgot-password",
  resetPassword: "/reset-password",
  account: "/account",
  signOut: "/sign-out",
  // The link of the change-of-email mail (docs/decisions/0020-account-lifecycle.md, "Change of email").
  confirmEmailChange: "/confirm-email-change",
  // Where the email-confirmation mail's link lands (docs/decisions/0020-account-lifecycle.md).
  confirmEmail: "/confirm-email",
  // Two-factor authentication (issue 15, point 4): the sign-in's second step, and its settings.
  twoFactor: "/sign-in/two-factor",
  accountTwoFactor: "/account/two-factor",
} as const;

export type AuthPage = keyof typeof AUTH_PAGES;

export const AUTH_PAGE_PATHS: readonly string[] = Object.values(AUTH_PAGES);

export type AuthPagePath = (typeof AUTH_PAGES)[keyof typeof AUTH_PAGES];

/**
 * The address of an auth page in a locale, spelt as pages are (app/lib/locale-path.ts): the
 * default locale unprefixed (`/sign-in`), any other under its prefix (`/de/sign-in`).
 */
export function authPath(page: AuthPage, locale: string, config: LocaleConfig): string {
  return localizedPath(AUTH_PAGES[page], locale, config);
}

/**
 * Whether a (canonical) path is an auth page in either spelling: `/sign-in`, or `/<x>/sign-in`
 * for any first segment (the router sends all of these to the auth page, which answers 404 for
 * a segment that is not a locale), so none of them is ever stored in the page cache. Some pages
 * have two segments of their own (`/sign-in/two-factor`).
 *
 * In any letter case, as the router matches: a canonical path spells these pages in lower case
 * (server/canonical-request.ts answers `/Account` with a 308 to `/account`), but the security
 * headers judge a path before that (server/security-headers.ts), and that 308 must not be
 * framable either.
 */
export function isAuthPagePath(pathname: string): boolean {
  const path = pathname.toLowerCase();
  return AUTH_PAGE_PATHS.includes(path) || AUTH_PAGE_PATHS.includes(path.replace(/^\/[^/]+/, ""));
}
