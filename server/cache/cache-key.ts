/**
 * What a cached page is keyed on: its canonical path (already normalised before the cache,
 * see server/canonical-request.ts), only the query parameters the matched route declares it
 * reads (`handle.cacheQuery`), sorted, plus the framework's own (`_routes` on `.data`
 * requests), and whether the visitor carries a session cookie (never its value). Everything
 * else a link may carry (`utm_*`, `fbclid`, `gclid`, `ref`, anything unknown) is left out:
 * the canonical page is served, and no stream of distinct query strings can push real pages
 * out of the cache.
 */

import { carriesCookie } from "../../app/lib/cookie-header.ts";
import type { CookieNames } from "../../app/lib/cookie-names.ts";

/** Query parameters React Router itself reads: always part of the key. */
const FRAMEWORK_PARAMS = ["_routes"];

/** Suffix of the signed-in variant's key; `#` never appears in a request path or query. */
export const SESSION_VARIANT_SUFFIX = "#session";

/**
 * better-auth's session-token cookie, under exactly the name in use (app/lib/cookie-names.ts): on
 * https a plain or `__Secure-` one, which a sibling subdomain can plant, is no session here either.
 */
export function hasSessionCookie(cookieHeader: string | undefined, names: CookieNames): boolean {
  return carriesCookie(cookieHeader, names.sessionToken);
}

/**
 * Whether the page cache must neither answer this request nor store its answer: it carries an
 * Authorization header, or a preview cookie (docs/decisions/0015-draft-preview.md). The
 * one decision, for the fast path (serveFreshHit) and the middleware alike. The cookie's mere
 * presence counts: a forged one costs its sender an uncached render of the published page,
 * which an Authorization header costs too.
 */
export function bypassesPageCache(headers: { authorization?: string; cookie?: string }, names: CookieNames): boolean {
  return Boolean(headers.authorization) || hasPreviewCookie(headers.cookie, names);
}

/**
 * Either preview cookie (app/lib/cookie-names.ts), present with any value: the draft one's
 * signature is checked by the render. Exactly the names in use, as for the session.
 */
export function hasPreviewCookie(cookieHeader: string | undefined, names: CookieNames): boolean {
  return carriesCookie(cookieHeader, names.preview) || carriesCookie(cookieHeader, names.publishedView);
}

export interface PageKey {
  /** The page's path plus its kept query, e.g. `/search?page=2`: what the render is made for. */
  url: string;
  /** The cache key: `url`, with SESSION_VARIANT_SUFFIX for the signed-in variant. */
  key: string;
}

/**
 * @param pathAndQuery the request's path (canonical) and query, as in `req.url`.
 * @param declared the parameters the route for a path declares it reads.
 */
export function pageKeyOf(
  pathAndQuery: string,
  declared: (pathname: string) => readonly string[],
  signedIn: boolean,
): PageKey {
  const queryAt = pathAndQuery.indexOf("?");
  let url = pathAndQuery;
  if (queryAt !== -1) {
    const pathname = pathAndQuery.slice(0, queryAt);
    const keep = new Set([...FRAMEWORK_PARAMS, ...declared(pathname)]);
    const kept = [...new URLSearchParams(pathAndQuery.slice(queryAt + 1))]
      .filter(([name]) => keep.has(name))
      .sort(([a, av], [b, bv]) => (a === b ? (av < bv ? -1 : av > bv ? 1 : 0) : a < b ? -1 : 1));
    url = kept.length ? `${pathname}?${new URLSearchParams(kept).toString()}` : pathname;
  }
  return { url, key: signedIn ? `${url}${SESSION_VARIANT_SUFFIX}` : url };
}
