import type { RouterContextProvider } from "react-router";
import * as z from "zod";

import { CMS_REVALIDATE, type CmsClient } from "../cms/client.server.ts";
import { ARTICLE_UID, ARTICLES_PER_PAGE, listAllArticles, type ArticleRef } from "../cms/articles.server.ts";
import { CONTENT_TYPES, listPublishedPages, type PageRef } from "../cms/content.server.ts";
import { blogSitemapEntriesBound, blogSitemapPages } from "./blog-sitemap.ts";
import { CmsError } from "../cms/errors.server.ts";
import type { LocaleConfig } from "../locale-path.ts";
import { localeConfigOf } from "../locales.server.ts";
import { cmsContext, configContext, logContext } from "../request-context.server.ts";
import { planSitemap, sitemapPartsBound, type SitemapPart } from "./sitemap.ts";

/**
 * What /sitemap.xml and /sitemap/<n>.xml both start from: every published page, listed in a
 * stable order, and the plan that cuts its URLs into files (SITEMAP_MAX_URLS a file). The
 * listing's CMS requests go through the data cache (the index and every part read the same
 * answers) and record the lists of every locale (`cms:api::page.page:list:*`, the articles' too)
 * and every document listed, so a page or article joining, leaving or changing revalidates the
 * index, every part and those answers. A part file is first checked against how many files the
 * site can need at most (sitemapPartsCeiling: two counts, also through the data cache), so a
 * number past it costs no listing. See docs/decisions/0012-seo-head-and-sitemap.md.
 */

export interface SitemapSource {
  pages: PageRef[];
  parts: SitemapPart[];
  origin: string;
  locales: LocaleConfig;
}

export const XML_HEADERS = { "content-type": "application/xml; charset=utf-8" };

/** How long a crawler is asked to wait when the sitemap cannot be built (seconds). */
const RETRY_AFTER_SECONDS = 120;

function unavailable(): Response {
  // A 5xx is never stored: the cache keeps serving the last good copy, if it has one.
  return new Response("The sitemap is temporarily unavailable. Please try again later.\n", {
    status: 503,
    headers: { "content-type": "text/plain; charset=utf-8", "retry-after": String(RETRY_AFTER_SECONDS) },
  });
}

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

const countAnswer = z.object({ meta: z.object({ pagination: z.object({ total: z.number() }) }) });

/**
 * How many published documents of a type there are, every locale (0 for a type the CMS does not
 * have): one row asked for, the total read from the pagination. Recorded as the type's list of
 * every locale (rule S4), so whatever joins or leaves it revalidates the count.
 */
async function publishedCount(cms: CmsClient, path: string, type: string): Promise<number> {
  try {
    const answer = await cms.get(path, countAnswer, {
      type,
      query: { fields: ["locale"], locale: "*", pagination: { page: 1, pageSize: 1 } },
      revalidate: CMS_REVALIDATE.pageData,
      omitUserAuthorization: true,
    });
    return answer.meta.pagination.total;
  } catch (error) {
    if (error instanceof CmsError && error.kind === "not-found") return 0;
    throw error;
  }
}

/**
 * The most sitemap files the published pages and articles can need (sitemapPartsBound), from their
 * counts alone: a part number past it does not exist, and is answered without listing anything.
 * Undefined when the CMS could not be asked (the caller then lists, and answers 503 if that fails).
 */
export async function sitemapPartsCeiling(context: Readonly<RouterContextProvider>): Promise<number | undefined> {
  const cms = context.get(cmsContext);
  const config = context.get(configContext);
  try {
    const [pages, articles] = await Promise.all([
      publishedCount(cms, "/api/pages", CONTENT_TYPES.page),
      publishedCount(cms, "/api/articles", ARTICLE_UID),
    ]);
    const locales = localeConfigOf(config).locales.length;
    const urls = pages + blogSitemapEntriesBound(articles, { perPage: ARTICLES_PER_PAGE, locales });
    return sitemapPartsBound(urls, { maxUrls: config.SITEMAP_MAX_URLS });
  } catch (error) {
    if (!(error instanceof CmsError)) throw error;
    return undefined;
  }
}

/** The pages and the plan, or a 503 to answer with when the CMS failed or listed nothing. */
export async function loadSitemap(context: Readonly<RouterContextProvider>): Promise<SitemapSource | Response> {
  const cms = context.get(cmsContext);
  // Every page is listed before the first byte: the status must be known by then, and a
  // listing cut short by a CMS failure must never be sent (or cached) as the whole sitemap.
  const pages: PageRef[] = [];
  try {
    const listing = listPublishedPages(cms, {
      sort: ["fullPath:asc", "locale:asc"],
      concurrency: 4,
      revalidate: CMS_REVALIDATE.pageData,
    });
    for await (const page of listing) pages.push(page);
    // The blog after the pages (docs/cms-contract.md, "Articles"): its listing pages, articles and category pages.
    pages.push(...blogSitemapPages(await publishedArticles(cms), { perPage: ARTICLES_PER_PAGE }));
  } catch (error) {
    if (!(error instanceof CmsError)) throw error;
    context.get(logContext).error(`[sitemap] not built: ${error.message}`);
    return unavailable();
  }
  if (pages.length === 0) {
    // Far likelier a CMS or permission problem than a site with nothing published.
    context.get(logContext).error("[sitemap] not built: the CMS lists no published page");
    return unavailable();
  }
  const config = context.get(configContext);
  const origin = new URL(config.APP_PUBLIC_URL).origin;
  const locales = localeConfigOf(config);
  return { pages, parts: planSitemap(pages, origin, locales, { maxUrls: config.SITEMAP_MAX_URLS }), origin, locales };
}
