import { LRUCache } from "lru-cache";
import { matchRoutes, type RouteObject } from "react-router";

/**
 * What the routes matching a path let into its page-cache key (cache-key.ts):
 * the query parameters they declare they read, and the route ids React Router's `_routes` may
 * name. Both come from the same match React Router makes, so the cache and the render agree.
 */

/**
 * The canonical spelling of a declared parameter's value (`"01"` → `"1"`), or undefined for a
 * value the page does not accept (it is then left out of the key and of the render's URL).
 * Every value must map into a set the route bounds: the values that name real content (its
 * loader answers 404 for the others, and 404s stay in their own small budget) or a fixed list.
 */
export type CanonicalQueryValue = (value: string) => string | undefined;

/**
 * A route module's `export const handle = { cacheQuery: { page: pageNumber } }`. CMS pages
 * declare none.
 */
export interface CacheQueryHandle {
  cacheQuery?: Readonly<Record<string, CanonicalQueryValue>>;
}

export interface KeyInputs {
  /** The declared query parameters, by name, with their values' canonical spelling. */
  query: Readonly<Record<string, CanonicalQueryValue>>;
  /** The matched routes that have a loader, root first: the only ids `_routes` may name. */
  loaderRouteIds: readonly string[];
}

export type KeyInputsOf = (pathname: string) => KeyInputs;

interface ManifestRoute {
  id: string;
  parentId?: string;
  path?: string;
  index?: boolean;
  caseSensitive?: boolean;
  module: { handle?: unknown; loader?: unknown };
}

/** The framework's own parameter: never a route's to declare (cache-key.ts reads it). */
const RESERVED = "_routes";

/**
 * The page a path asks for, as React Router 8 reads it: `/company.data` is `/company`, and
 * `/_.data` is `/` (`/a/_.data`: `/a/`).
 */
function pageOf(pathname: string): string {
  if (pathname.endsWith("/_.data")) return pathname.slice(0, -"_.data".length);
  return pathname.endsWith(".data") ? pathname.slice(0, -".data".length) : pathname;
}

function declaredBy(route: ManifestRoute): Readonly<Record<string, CanonicalQueryValue>> {
  const declared = (route.module.handle as CacheQueryHandle | undefined)?.cacheQuery;
  if (declared === undefined) return {};
  // Names alone (the earlier form) would key on any value a stranger sends: refuse at start.
  const valid =
    typeof declared === "object" &&
    declared !== null &&
    !Array.isArray(declared) &&
    Object.entries(declared).every(([name, canonical]) => name !== RESERVED && typeof canonical === "function");
  if (!valid) {
    throw new Error(
      `Route ${route.id}: handle.cacheQuery must map each query parameter to a function giving its value's ` +
        `canonical spelling (docs/decisions/0008-cache-variants.md); "${RESERVED}" is React Router's own.`,
    );
  }
  return declared;
}

export function keyInputsOf(routes: Record<string, ManifestRoute | undefined>): KeyInputsOf {
  const byParent = new Map<string | undefined, ManifestRoute[]>();
  for (const route of Object.values(routes)) {
    if (!route) continue;
    declaredBy(route);
    byParent.set(route.parentId, [...(byParent.get(route.parentId) ?? []), route]);
  }
  const tree = (parentId: string | undefined): RouteObject[] =>
    (byParent.get(parentId) ?? []).map((route) =>
      route.index
        ? { id: route.id, index: true, path: route.path }
        : { id: route.id, path: route.path, caseSensitive: route.caseSensitive, children: tree(route.id) },
    );
  const routeTree = tree(undefined);
  // matchRoutes ranks every route on each call: remember the answer per path (bounded).
  const memo = new LRUCache<string, KeyInputs>({ max: 5_000 });
  return (pathname) => {
    const known = memo.get(pathname);
    if (known) return known;
    const matched = (matchRoutes(routeTree, pageOf(pathname)) ?? []).map((match) => routes[match.route.id!]!);
    const inputs: KeyInputs = {
      query: Object.assign({}, ...matched.map(declaredBy)) as KeyInputs["query"],
      loaderRouteIds: matched.filter((route) => typeof route.module.loader === "function").map((route) => route.id),
    };
    memo.set(pathname, inputs);
    return inputs;
  };
}
