/**
 * What a cached page is keyed on, and nothing else, so that no stream of requests can make more
 * than a few entries per page (docs/decisions/0008-cache-variants.md, "What bounds the key"):
 * - its canonical path (already normalised before the cache, see server/canonical-request.ts);
 * - the query parameters the matched routes declare they read (`handle.cacheQuery`), one value
 *   each, in its canonical spelling, sorted by name;
 * - on `.data` requests, React Router's `_routes` in one spelling, when it names only matched
 *   routes with a loader, the page's own among them; a forged one is refused (400), one without
 *   the page's route is answered and never stored;
 * - whether the visitor is signed in (VisitorPolicy.signedIn: a session cookie's presence, never its value).
 * Everything else a link may carry (`utm_*`, `fbclid`, `gclid`, `ref`, anything unknown) is left
 * out of the key and of the render's URL: the canonical page is served.
 */

import type { KeyInputsOf } from "./declared-query.ts";

/** React Router's single-fetch parameter: the route ids whose loaders a `.data` request runs. */
const ROUTES_PARAM = "_routes";

/** Suffix of the signed-in variant's key; `#` never appears in a request path or query. */
export const SESSION_VARIANT_SUFFIX = "#session";

/** The request headers a visitor policy reads. */
export interface VisitorHeaders {
  authorization?: string;
  cookie?: string;
}

/**
 * The site's policy about its visitors, which only the site knows (its cookie names and what
 * they mean): the one decision for the fast path (serveFreshHit) and the middleware alike.
 */
export interface VisitorPolicy {
  /** The signed-in variant: the request carries a session (its value is never read). */
  signedIn(cookieHeader: string | undefined): boolean;
  /**
   * The cache must neither answer this request nor store its answer (an Authorization header, a
   * preview cookie...): it is rendered for this visitor alone.
   */
  bypasses(headers: VisitorHeaders): boolean;
}

export interface PageKey {
  /** The page's path plus its kept query, e.g. `/search?page=2`: what the render is made for. */
  url: string;
  /** The cache key: `url`, with SESSION_VARIANT_SUFFIX for the signed-in variant. */
  key: string;
}

/**
 * A page key; or `uncached`: answer the request, never store it (a `_routes` that leaves out the
 * page's own loader); or `refused`: a 400 with this reason, nothing rendered (a forged `_routes`).
 */
export type PageKeyOutcome = ({ kind: "key" } & PageKey) | { kind: "uncached" } | { kind: "refused"; reason: string };

/**
 * @param pathAndQuery the request's path (canonical) and query, as in `req.url`.
 * @param inputsOf what the routes matching a path let into its key (declared-query.ts).
 */
export function pageKeyOf(pathAndQuery: string, inputsOf: KeyInputsOf, signedIn: boolean): PageKeyOutcome {
  const queryAt = pathAndQuery.indexOf("?");
  let url = pathAndQuery;
  if (queryAt !== -1) {
    const pathname = pathAndQuery.slice(0, queryAt);
    const query = new URLSearchParams(pathAndQuery.slice(queryAt + 1));
    const inputs = inputsOf(pathname);
    const kept: Array<[string, string]> = [];
    for (const [name, canonical] of Object.entries(inputs.query)) {
      // The first value, as the route's `searchParams.get` reads it: the render sees only that one.
      const value = query.get(name);
      const spelled = value === null ? undefined : canonical(value);
      if (spelled !== undefined) kept.push([name, spelled]);
    }
    if (pathname.endsWith(".data")) {
      const routes = canonicalRoutesParam(query.getAll(ROUTES_PARAM), inputs.loaderRouteIds);
      if (typeof routes !== "string") return routes;
      if (routes) kept.push([ROUTES_PARAM, routes]);
    }
    kept.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    url = kept.length ? `${pathname}?${new URLSearchParams(kept).toString()}` : pathname;
  }
  return { kind: "key", url, key: signedIn ? `${url}${SESSION_VARIANT_SUFFIX}` : url };
}

/**
 * `_routes` as React Router's client writes it (the ids of the matched routes whose loaders must
 * run, comma-separated, once), in one spelling: each id once, in the routes' order, and none
 * (`""`) when it names every loader or is empty, as the server then runs them all.
 * @param loaderIds the matched routes with a loader, root first (declared-query.ts).
 */
function canonicalRoutesParam(
  values: string[],
  loaderIds: readonly string[],
): string | Exclude<PageKeyOutcome, PageKey> {
  // Never sent by React Router's client: refused, before anything is rendered.
  if (values.length > 1) return { kind: "refused", reason: `${ROUTES_PARAM} may be given once.` };
  if (!values[0]) return "";
  const asked = new Set(values[0].split(","));
  if ([...asked].some((id) => !loaderIds.includes(id))) {
    const allowed = loaderIds.join(", ") || "none";
    return {
      kind: "refused",
      reason: `${ROUTES_PARAM} may only name the routes with a loader that this address matches (${allowed}).`,
    };
  }
  // Without the page's own loader nothing checks that the page exists (`_routes=root` on any
  // path is a 200): answered, never stored. The client leaves it out only when that route opts
  // out of revalidating, which no cached route does.
  if (!asked.has(loaderIds.at(-1)!)) return { kind: "uncached" };
  return asked.size === loaderIds.length ? "" : loaderIds.filter((id) => asked.has(id)).join(",");
}
