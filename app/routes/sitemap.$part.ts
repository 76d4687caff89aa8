import type { Route } from "./+types/sitemap.$part";
import { loadSitemap, sitemapPartsCeiling, XML_HEADERS } from "../lib/seo/sitemap.server.ts";
import { sitemapPartNumber, sitemapStream } from "../lib/seo/sitemap.ts";

/**
 * GET /sitemap/<n>.xml: part n (1-based) of a sitemap too large for one file, a plain sitemap
 * of a stable slice of the URLs /sitemap.xml would list (the same listing, the same order).
 * Listed by the index /sitemap.xml and nowhere else. Which numbers can exist is decided first
 * from two counts the data cache keeps (sitemapPartsCeiling, revalidated by the lists' tags): a
 * number past them, and any while the site fits in one file, is a 404 that lists nothing and
 * asks the CMS nothing while the counts are cached. Only a number within them lists the pages
 * (through the data cache too). A segment that is no part's name (`abc.xml`, `01.xml`, `1.json`)
 * is a 404 without asking the CMS. No part's 404 is stored (`Cache-Control: no-store`, which the
 * page cache honours): a stranger asking for a billion numbers adds no entry.
 */

function notFound(): Response {
  return new Response("There is no such sitemap file. The list of the site's sitemap files is /sitemap.xml.\n", {
    status: 404,
    headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" },
  });
}

/**
 * The loader's Cache-Control for the `.data` twin too (React Router answers that from the route's
 * headers, not the loader's Response): a part that does not exist is not stored there either.
 */
export function headers({ loaderHeaders }: Route.HeadersArgs) {
  const cacheControl = loaderHeaders.get("cache-control");
  return cacheControl ? { "cache-control": cacheControl } : new Headers();
}

export async function loader({ context, params }: Route.LoaderArgs) {
  const number = sitemapPartNumber(params.part);
  if (number === null) return notFound();
  const ceiling = await sitemapPartsCeiling(context);
  // One file at most: no part file at all.
  if (ceiling !== undefined && (ceiling < 2 || number > ceiling)) return notFound();
  const source = await loadSitemap(context);
  if (source instanceof Response) return source;
  const { pages, parts, origin, locales } = source;
  const part = parts.length > 1 ? parts[number - 1] : undefined;
  if (!part) return notFound();
  return new Response(sitemapStream(pages, origin, locales, { part }), { headers: XML_HEADERS });
}
