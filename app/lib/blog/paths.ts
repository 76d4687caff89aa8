/**
 * The blog's addresses (docs/cms-contract.md, "Articles"), without the locale prefix: the site
 * puts it in front for locales other than the default one (app/lib/locale-path.ts).
 */

/** `/blog`, `/blog/<slug>`, `/blog/category/<slug>`, `/blog/rss.xml`. */
export function blogPath(target: { slug?: string; category?: string; feed?: boolean } = {}): string {
  if (target.slug) return `/blog/${target.slug}`;
  if (target.category) return `/blog/category/${target.category}`;
  if (target.feed) return "/blog/rss.xml";
  return "/blog";
}

/** A listing page's address: page 1 is the listing itself, the others `?page=N`. */
export function listingPagePath(base: string, page: number): string {
  return page <= 1 ? base : `${base}?page=${page}`;
}

/** The largest page number a listing accepts: anything longer is refused, like any other junk. */
const MAX_PAGE_DIGITS = 6;

/**
 * The page a `?page=` value asks for: absent → 1; a positive whole number in plain decimal digits
 * (a leading zero allowed: `02` is 2) → that number; anything else (`abc`, `0`, `-1`, `1.5`, `1e3`,
 * a number of more than six digits) → null, which the listing answers 404.
 */
export function parsePageParam(value: string | null): number | null {
  if (value === null) return 1;
  const match = /^0*([1-9][0-9]*)$/.exec(value);
  if (!match || match[1]!.length > MAX_PAGE_DIGITS) return null;
  return Number(match[1]);
}

/**
 * The page-cache spelling of a `?page=` value (handle.cacheQuery, @cms-site/page-cache, declared-query.ts):
 * a valid number in its plain spelling (`02` → `2`), and every invalid value as one and the same
 * `0`, so no stream of junk values can make more than one (404) cache entry per listing.
 */
export function canonicalPageParam(value: string): string {
  const page = parsePageParam(value);
  return page === null ? "0" : String(page);
}

/**
 * Whether a request path is one the feed could be served under (`/blog/rss.xml`, `/<locale>/blog/rss.xml`):
 * the page cache stores it like the sitemap (server/app.ts); the route answers 404 for a segment that is no locale.
 */
export function isBlogFeedPath(pathname: string): boolean {
  return /^\/(?:[^/]+\/)?blog\/rss\.xml$/.test(pathname);
}
