/**
 * The name of every cookie the site sets or reads, from one rule (docs/security.md, "Cookies").
 *
 * On https (APP_PUBLIC_URL) each name carries the `__Host-` prefix: a browser keeps such a cookie
 * only when this very host set it, `Secure`, with `Path=/` and no `Domain`. A sibling subdomain,
 * which may set cookies for the whole registrable domain, can then neither plant one of ours (its
 * own session, a preview marker) nor shadow ours with a longer path. A plain or `__Secure-` name on
 * an https site is nobody's cookie: never read, and no session for the page cache.
 *
 * On http (development, local tests) the plain names: browsers refuse `__Host-` cookies there.
 */

export interface CookieNames {
  /** https: every cookie is `__Host-` named and set `Secure`, `Path=/`, without `Domain`. */
  secure: boolean;
  /** better-auth's `advanced.cookiePrefix`: it names its cookies `<auth>.session_token` and so on. */
  auth: string;
  /** better-auth's signed session token (its presence picks the page cache's signed-in variant). */
  sessionToken: string;
  /** better-auth's encrypted session (JWE): the user and the CMS JWT. */
  sessionData: string;
  /** The accounts this browser signed in to (app/lib/auth/known-device.server.ts). */
  knownDevice: string;
  /** The signed draft preview (app/lib/preview/preview-cookie.server.ts). */
  preview: string;
  /** The admin's Published tab: published pages, framable by the CMS admin (a marker, unsigned). */
  publishedView: string;
  /** A sign-in waiting for its second factor (app/lib/auth/two-factor-cookies.server.ts). */
  twoFactorPending: string;
  /** New recovery codes across one redirect (same file). */
  twoFactorCodes: string;
}

const HOST_PREFIX = "__Host-";

/** The names for a site at `publicUrl` (APP_PUBLIC_URL, or any URL of the site: better-auth's baseURL). */
export function cookieNamesFor(publicUrl: string): CookieNames {
  return cookieNames(new URL(publicUrl).protocol === "https:");
}

/** The names on https (`secure`) or on http. */
export function cookieNames(secure: boolean): CookieNames {
  const named = (base: string) => (secure ? `${HOST_PREFIX}${base}` : base);
  const auth = named("better-auth");
  return {
    secure,
    auth,
    sessionToken: `${auth}.session_token`,
    sessionData: `${auth}.session_data`,
    knownDevice: named("acme.known_device"),
    preview: named("site_preview"),
    publishedView: named("site_preview_published"),
    twoFactorPending: named("acme.two_factor_pending"),
    twoFactorCodes: named("acme.two_factor_codes"),
  };
}
