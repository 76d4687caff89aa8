import type { RouterContextProvider } from "react-router";

import { CONTENT_TYPE_MODULES } from "../../content-types/modules.server.ts";
import { CMS_REVALIDATE } from "../cms/client.server.ts";
import { CONTENT_TYPES, listPublishedPages, type PageRef } from "../cms/content.server.ts";
import { CmsError } from "../cms/errors.server.ts";
import type { LocaleConfig } from "../locale-path.ts";
import { localeConfigOf } from "../locales.server.ts";
import { cmsContext, configContext, logContext } from "../request-context.server.ts";
import { publishedCount } from "./published-count.server.ts";
import { planSitemap, sitemapPartsBound, type SitemapPart, type SitemapPage } from "./sitemap.ts";

/**
 * What /sitemap.xml and /sitemap/<n>.xml both start from: every published page, listed in a
 * stable order, and the plan that cuts its URLs into files (SITEMAP_MAX_URLS a file). The
 * listing's CMS requests go through the data cache (the index and every part read the same
 * answers) and record the lists of every locale (`cms:api::page.page:list:*`, and those of each
 * content type with a sitemap: app/content-types/<name>/module.server.ts, the articles')
 * and every document listed, so a page or article joining, leaving or changing revalidates the
 * index, every part and those answers. A part file is first checked against how many files the
 * site can need at most (sitemapPartsCeiling: two counts, also through the data cache), so a
 * number past it costs no listing. See docs/decisions/0012-seo-head-and-sitemap.md.
 */

export interface SitemapSource {
  pages: Array<PageRef | SitemapPage>;
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
 * The most sitemap files the published pages and the content types' entries can need
 * (sitemapPartsBound), from their counts alone: a part number past it does not exist, and is answered without listing anything.
 * Undefined when the CMS could not be asked (the caller then lists, and answers 503 if that fails).
 */
export async function sitemapPartsCeiling(context: Readonly<RouterContextProvider>): Promise<number | undefined> {
  const cms = context.get(cmsContext);
  const config = context.get(configContext);
  try {
    const locales = localeConfigOf(config).locales.length;
    const counts = await Promise.all([
      publishedCount(cms, "/api/pages", CONTENT_TYPES.page),
      ...CONTENT_TYPE_MODULES.map((module) => module.sitemap?.bound(cms, { locales }) ?? 0),
    ]);
    const urls = counts.reduce((sum, count) => sum + count, 0);
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
  const pages: Array<PageRef | SitemapPage> = [];
  try {
    const listing = listPublishedPages(cms, {
      sort: ["fullPath:asc", "locale:asc"],
      concurrency: 4,
      revalidate: CMS_REVALIDATE.pageData,
    });
    for await (const page of listing) pages.push(page);
    // The content types' entries after the pages, in their registration's order (app/content-types/index.ts).
    for (const module of CONTENT_TYPE_MODULES) if (module.sitemap) pages.push(...(await module.sitemap.entries(cms)));
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
