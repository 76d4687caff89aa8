import type { Route } from "./+types/sitemap.xml";
import { loadSitemap, XML_HEADERS } from "../lib/seo/sitemap.server.ts";
import { sitemapIndex, sitemapStream } from "../lib/seo/sitemap.ts";

/**
 * GET /sitemap.xml: every published page in every locale the site serves. While they fit in
 * one file (SITEMAP_MAX_URLS URLs, 50 MiB) it is that file; past that, a sitemap index of the
 * part files /sitemap/1.xml, /sitemap/2.xml, … (routes/sitemap.$part.ts), each with the newest
 * lastmod of its URLs. It goes through the page cache like a page (server/app.ts,
 * isCacheablePath), revalidated by the page type's tag. See docs/decisions/0012-seo-head-and-sitemap.md.
 */
export async function loader({ context }: Route.LoaderArgs) {
  const source = await loadSitemap(context);
  if (source instanceof Response) return source;
  const { pages, parts, origin, locales } = source;
  if (parts.length > 1) return new Response(sitemapIndex(parts, origin), { headers: XML_HEADERS });
  return new Response(sitemapStream(pages, origin, locales, { part: parts[0] }), { headers: XML_HEADERS });
}
