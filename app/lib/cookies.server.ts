import { parseCookie, parseSetCookie, stringifySetCookie } from "cookie";

/**
 * The one way the site reads and writes its own cookies (preview, two-factor, known device; the
 * names in app/lib/cookie-names.ts), through the `cookie` package (jshttp's, the one Express
 * uses). better-auth reads and writes its session cookies itself, and a cookie set inside a
 * better-auth endpoint goes out through that endpoint's `ctx.setCookie`
 * (docs/decisions/0011-libraries-and-hand-written-parts.md).
 */

/** What every cookie of the site is set with: `Path=/` and HttpOnly, which `__Host-` names need. */
export interface CookieAttributes {
  path: "/";
  httpOnly: true;
  sameSite: "lax" | "none";
  secure: boolean;
  partitioned?: boolean;
}

/** How long the browser keeps it: `maxAge` in seconds (0: expire it now), `expires` besides, if given. */
export interface CookieLifetime {
  maxAge: number;
  expires?: Date;
}

const HOST_PREFIX = "__Host-";

/**
 * A Set-Cookie header. A `__Host-` name without `Secure` would be dropped by the browser without
 * a word, so it is refused here instead.
 */
export function setCookieHeader(
  name: string,
  value: string,
  attributes: CookieAttributes,
  lifetime: CookieLifetime,
): string {
  if (name.startsWith(HOST_PREFIX) && !attributes.secure) {
    throw new TypeError(`cookie ${name}: a ${HOST_PREFIX} cookie must be Secure`);
  }
  return stringifySetCookie({ name, value, ...attributes, ...lifetime });
}

/**
 * A cookie's value in a Cookie request header; undefined when there is none. The first pair of
 * that exact name wins: browsers send the cookie of the longest path first, and on http a sibling
 * subdomain's cookie for the whole domain comes after ours (on https the names are `__Host-`,
 * which a sibling cannot set at all). A value the writer percent-encoded is decoded.
 */
export function cookieValueOf(cookieHeader: string | null | undefined, name: string): string | undefined {
  return cookieHeader ? parseCookie(cookieHeader)[name] : undefined;
}

/**
 * Whether the header carries a cookie of one of these exact names with a value (not `name=`),
 * judged on the first pair of each name as cookieValueOf reads it. The page cache asks this of
 * every request (server/page-cache-policy.ts): one parse for all the names, the values never decoded.
 */
export function carriesCookie(cookieHeader: string | null | undefined, ...names: string[]): boolean {
  if (!cookieHeader) return false;
  const cookies = parseCookie(cookieHeader, { decode: (value) => value });
  return names.some((name) => Boolean(cookies[name]));
}

/**
 * Of an answer's Set-Cookie headers, the one that sets the cookie `name` to a value (not one that
 * expires it), or null.
 */
export function setCookieIn(setCookies: readonly string[], name: string): { header: string; value: string } | null {
  for (const header of setCookies) {
    const { name: set, value, maxAge } = parseSetCookie(header);
    if (set === name && value && maxAge !== 0) return { header, value };
  }
  return null;
}
