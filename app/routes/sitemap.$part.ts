import type { Route } from "./+types/sitemap.$part";
import { loadSitemap, XML_HEADERS } from "../lib/seo/sitemap.server.ts";
import { sitemapPartNumber, sitemapStream } from "../lib/seo/sitemap.ts";

/**
 * GET /sitemap/<n>.xml: part n (1-based) of a sitemap too large for one file, a plain sitemap
 * of a stable slice of the URLs /sitemap.xml would list (the same listing, the same order).
 * Listed by the index /sitemap.xml and nowhere else. A part beyond the last, and any part while
 * the site fits in one file, is a 404 that carries the page type's tag (the next publish may
 * create it); a segment that is no part's name (`abc.xml`, `01.xml`, `1.json`) is a 404 without
 * asking the CMS. A 404 is never written to the shared cache layer (server/cache/response-cache.ts).
 */

function notFound(): Response {
  return new Response("There is no such sitemap file. The list of the site's sitemap files is /sitemap.xml.\n", {
    status: 404,
    headers: { "content-type": "text/plain; charset=utf-8" },
  });
}

export async function loader({ context, params }: Route.LoaderArgs) {
  const number = sitemapPartNumber(params.part);
  if (number === null) return notFound();
  const source = await loadSitemap(context);
  if (source instanceof Response) return source;
  const { pages, parts, origin, locales } = source;
  const part = parts.length > 1 ? parts[number - 1] : undefined;
  if (!part) return notFound();
  return new Response(sitemapStream(pages, origin, locales, { part }), { headers: XML_HEADERS });
}
