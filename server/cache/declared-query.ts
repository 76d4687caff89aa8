import { LRUCache } from "lru-cache";
import { matchRoutes, type RouteObject } from "react-router";

/**
 * Which query parameters a page's render reads, as its routes declare them:
 * `export const handle = { cacheQuery: ["page"] }` in a route module. The page cache keys on
 * those only (server/cache/cache-key.ts). CMS pages declare none.
 */
export interface CacheQueryHandle {
  cacheQuery?: readonly string[];
}

interface ManifestRoute {
  id: string;
  parentId?: string;
  path?: string;
  index?: boolean;
  caseSensitive?: boolean;
  module: { handle?: unknown };
}

export function declaredQueryParams(
  routes: Record<string, ManifestRoute | undefined>,
): (pathname: string) => readonly string[] {
  const byParent = new Map<string | undefined, ManifestRoute[]>();
  for (const route of Object.values(routes)) {
    if (!route) continue;
    byParent.set(route.parentId, [...(byParent.get(route.parentId) ?? []), route]);
  }
  const tree = (parentId: string | undefined): RouteObject[] =>
    (byParent.get(parentId) ?? []).map((route) =>
      route.index
        ? { id: route.id, index: true, path: route.path }
        : { id: route.id, path: route.path, caseSensitive: route.caseSensitive, children: tree(route.id) },
    );
  const routeTree = tree(undefined);
  const params = (id: string) => {
    const handle = routes[id]?.module.handle as CacheQueryHandle | undefined;
    return Array.isArray(handle?.cacheQuery) ? handle.cacheQuery : [];
  };
  const none: readonly string[] = [];
  // The common case (CMS pages only): no route declares any, nothing to match on the hot path.
  if (!Object.keys(routes).some((id) => params(id).length > 0)) return () => none;
  // matchRoutes ranks every route on each call: remember the answer per path (bounded).
  const memo = new LRUCache<string, readonly string[]>({ max: 5_000 });
  return (pathname) => {
    const known = memo.get(pathname);
    if (known) return known;
    // `/search.data` is `/search`'s data, `/_.data` the home page's (React Router 8).
    const page = pathname.endsWith("/_.data")
      ? pathname.slice(0, -"_.data".length)
      : pathname.endsWith(".data")
        ? pathname.slice(0, -".data".length)
        : pathname;
    const matches = matchRoutes(routeTree, page) ?? [];
    const declared = matches.flatMap((match) => params(match.route.id!));
    memo.set(pathname, declared);
    return declared;
  };
}
