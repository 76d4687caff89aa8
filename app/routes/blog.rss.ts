import type { Route } from "./+types/blog.rss";
import { blogPath } from "../lib/blog/paths.ts";
import { rssFeed } from "../lib/blog/rss.ts";
import { blogWords } from "../lib/blog/words.ts";
import { listArticles } from "../lib/cms/articles.server.ts";
import { CmsError } from "../lib/cms/errors.server.ts";
import { contentRouteContext, pathLocale } from "../lib/content-route.server.ts";
import { SITE_NAME } from "../lib/seo/head.ts";
import { canonicalPageUrl } from "../lib/seo/site-url.ts";

/** Items in the feed: the newest articles of the locale. */
export const FEED_ITEMS = 20;

/**
 * GET /blog/rss.xml (and /de/blog/rss.xml): the locale's newest articles as RSS 2.0. Through the
 * page cache like the sitemap (server/app.ts, isCacheablePath), revalidated by the article type's
 * tag. A CMS failure is a 503 (never stored); an address that is no feed, a 404.
 */
export async function loader({ context, url }: Route.LoaderArgs) {
  const { cms, log, config, origin } = contentRouteContext(context);
  const locale = pathLocale(url.pathname, blogPath({ feed: true }), config);
  if (!locale) {
    return new Response("Not found\n", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
  }
  let listing;
  try {
    listing = await listArticles(cms, { locale, page: 1, pageSize: FEED_ITEMS });
  } catch (error) {
    if (!(error instanceof CmsError)) throw error;
    log.error(`[rss] not built: ${error.message}`);
    return new Response("The feed is temporarily unavailable. Please try again later.\n", {
      status: 503,
      headers: { "content-type": "text/plain; charset=utf-8", "retry-after": "120" },
    });
  }
  const url_ = (path: string) => canonicalPageUrl(origin, path, locale, config) ?? `${origin}${path}`;
  const words = blogWords(locale);
  const xml = rssFeed({
    title: `${words.blog} | ${SITE_NAME}`,
    link: url_(blogPath()),
    self: url_(blogPath({ feed: true })),
    description: words.blogDescription,
    language: locale,
    items: listing.articles.map((article) => ({
      title: article.title,
      link: url_(blogPath({ slug: article.slug })),
      description: article.excerpt,
      date: article.date,
      author: article.author?.name ?? null,
      category: article.category?.name ?? null,
    })),
  });
  return new Response(xml, { headers: { "content-type": "application/rss+xml; charset=utf-8" } });
}
