import type { CmsClient } from "../../lib/cms/client.server.ts";
import { ARTICLE_UID, ARTICLES_PER_PAGE, listAllArticles, type ArticleRef } from "../../lib/cms/articles.server.ts";
import { CmsError } from "../../lib/cms/errors.server.ts";
import { blogSitemapEntriesBound, blogSitemapPages } from "../../lib/seo/blog-sitemap.ts";
import { publishedCount } from "../../lib/seo/published-count.server.ts";
import type { ContentTypeServer } from "../types.ts";
import { latestArticlesSection } from "./latest-articles.server.ts";

/**
 * The blog (docs/blog.md, docs/cms-contract.md "Articles"): its routes are routes.ts, its queries
 * app/lib/cms/articles.server.ts. Here: its sitemap entries, its Preview's REST path and the
 * latest-articles section it brings to pages.
 */

/**
 * Every published article (recording the list: a publish reaches the sitemap). A CMS that
 * has no article type yet (an older CMS, a stand-in) answers 404: no blog, the pages still listed.
 */
async function publishedArticles(cms: CmsClient): Promise<ArticleRef[]> {
  const articles: ArticleRef[] = [];
  try {
    for await (const article of listAllArticles(cms)) articles.push(article);
  } catch (error) {
    if (error instanceof CmsError && error.kind === "not-found") return [];
    throw error;
  }
  return articles;
}

export default {
  uid: ARTICLE_UID,
  restPath: "/api/articles",
  sitemap: {
    // Its listing pages, articles and category pages.
    entries: async (cms) => blogSitemapPages(await publishedArticles(cms), { perPage: ARTICLES_PER_PAGE }),
    bound: async (cms, { locales }) =>
      blogSitemapEntriesBound(await publishedCount(cms, "/api/articles", ARTICLE_UID), {
        perPage: ARTICLES_PER_PAGE,
        locales,
      }),
  },
  sections: { "sections.latest-articles": latestArticlesSection },
} satisfies ContentTypeServer;
