import { localizedPath, type LocaleConfig } from "../locale-path.ts";

/**
 * The site's search page (docs/search.md): `/search` in the default locale, `/<locale>/search` in
 * the others (app/routes.ts; a first segment that is no locale is a 404).
 */
export const SEARCH_PATH = "/search";

/** The limits the page and the CMS's route share (cms/src/plugins/site-search/server/config). */
export const SEARCH_LIMITS = { maxQueryLength: 200, maxPage: 50 } as const;

export const searchPath = (locale: string, config: LocaleConfig) => localizedPath(SEARCH_PATH, locale, config);

/**
 * Whether a (canonical) path is the search page in either spelling. Its answer depends on the
 * query a visitor types: never stored in the page cache (server/app.ts isCacheablePath), which keys
 * a page by its path and declared parameters only.
 */
export function isSearchPagePath(pathname: string): boolean {
  const path = pathname.toLowerCase();
  return path === SEARCH_PATH || path.replace(/^\/[^/]+/, "") === SEARCH_PATH;
}

/** `?q=` and `page` as the page reads them: `page` a whole number 1..maxPage (null: not one), absent: 1. */
export function parseSearchPage(raw: string | null): number | null {
  if (raw === null || raw === "") return 1;
  if (!/^[1-9][0-9]{0,3}$/.test(raw)) return null;
  const page = Number(raw);
  return page <= SEARCH_LIMITS.maxPage ? page : null;
}

/** The address of a page of results. */
export function searchPagePath(base: string, q: string, page: number): string {
  const query = new URLSearchParams({ q });
  if (page > 1) query.set("page", String(page));
  return `${base}?${query.toString()}`;
}
