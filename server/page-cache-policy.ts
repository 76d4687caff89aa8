import type { VisitorPolicy } from "@cms-site/page-cache";

import type { CookieNames } from "../app/lib/cookie-names.ts";
import { carriesCookie } from "../app/lib/cookies.server.ts";

/** Interval of a cached page (seconds, docs/cms-contract.md "Limits"); its CMS fetches may shorten it. */
export const PAGE_REVALIDATE_SECONDS = 300;

/**
 * This site's answers to the page cache's questions about a visitor (the package knows no cookie
 * names): which requests get the signed-in variant, and which the cache must leave alone.
 * docs/decisions/0008-cache-variants.md and 0046-page-cache-package.md.
 */

/**
 * better-auth's session-token cookie, under exactly the name in use (app/lib/cookie-names.ts): on
 * https a plain or `__Secure-` one, which a sibling subdomain can plant, is no session here either.
 */
export function hasSessionCookie(cookieHeader: string | undefined, names: CookieNames): boolean {
  return carriesCookie(cookieHeader, names.sessionToken);
}

/**
 * Either preview cookie (app/lib/cookie-names.ts), present with any value: the draft one's
 * signature is checked by the render. Exactly the names in use, as for the session.
 */
export function hasPreviewCookie(cookieHeader: string | undefined, names: CookieNames): boolean {
  return carriesCookie(cookieHeader, names.preview, names.publishedView);
}

/**
 * Whether the page cache must neither answer this request nor store its answer: it carries an
 * Authorization header, or a preview cookie (docs/decisions/0015-draft-preview.md). The cookie's
 * mere presence counts: a forged one costs its sender an uncached render of the published page,
 * which an Authorization header costs too.
 */
export function bypassesPageCache(headers: { authorization?: string; cookie?: string }, names: CookieNames): boolean {
  return Boolean(headers.authorization) || hasPreviewCookie(headers.cookie, names);
}

/** The visitor policy the page cache is given, for this site's cookie names. */
export function visitorPolicyFor(names: CookieNames): VisitorPolicy {
  return {
    signedIn: (cookieHeader) => hasSessionCookie(cookieHeader, names),
    bypasses: (headers) => bypassesPageCache(headers, names),
  };
}
