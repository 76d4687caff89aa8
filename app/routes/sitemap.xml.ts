import type { Route } from "./+types/sitemap.xml";
import { CMS_REVALIDATE, cmsTag } from "../lib/cms/client.server.ts";
import { CONTENT_TYPES, listPublishedPages, type PageRef } from "../lib/cms/content.server.ts";
import { CmsError } from "../lib/cms/errors.server.ts";
import { localeConfigOf } from "../lib/locales.server.ts";
import { logger } from "../lib/logger.server.ts";
import { cmsContext, configContext } from "../lib/request-context.server.ts";
import { sitemapStream } from "../lib/seo/sitemap.ts";

/**
 * GET /sitemap.xml: every published page in every locale the site serves. It goes through the
 * page cache like a page (server/app.ts, isCacheablePath); its CMS requests carry the page type's
 * tag, which the CMS sends with every page publish, unpublish and delete, so any of them
 * revalidates it. See docs/decisions/0012-seo-head-and-sitemap.md.
 */

/** How long a crawler is asked to wait when the sitemap cannot be built (seconds). */
const RETRY_AFTER_SECONDS = 120;

function unavailable(): Response {
  // A 5xx is never stored: the cache keeps serving the last good sitemap, if it has one.
  return new Response("The sitemap is temporarily unavailable. Please try again later.\n", {
    status: 503,
    headers: { "content-type": "text/plain; charset=utf-8", "retry-after": String(RETRY_AFTER_SECONDS) },
  });
}

export async function loader({ context }: Route.LoaderArgs) {
  const cms = context.get(cmsContext);
  // Every page is listed before the first byte: the status must be known by then, and a
  // listing cut short by a CMS failure must never be sent (or cached) as the whole sitemap.
  const pages: PageRef[] = [];
  try {
    const listing = listPublishedPages(cms, {
      sort: ["fullPath:asc", "locale:asc"],
      concurrency: 4,
      revalidate: CMS_REVALIDATE.pageData,
      tags: [cmsTag(CONTENT_TYPES.page)],
    });
    for await (const page of listing) pages.push(page);
  } catch (error) {
    if (!(error instanceof CmsError)) throw error;
    logger().error(`[sitemap] not built: ${error.message}`);
    return unavailable();
  }
  if (pages.length === 0) {
    // Far likelier a CMS or permission problem than a site with nothing published.
    logger().error("[sitemap] not built: the CMS lists no published page");
    return unavailable();
  }
  const config = context.get(configContext);
  const origin = new URL(config.APP_PUBLIC_URL).origin;
  const body = sitemapStream(pages, origin, localeConfigOf(config), {
    onOverflow: (leftOut) =>
      logger().error(
        `[sitemap] ${leftOut} pages left out: a sitemap lists at most 50,000 URLs (a sitemap index is needed)`,
      ),
  });
  return new Response(body, { headers: { "content-type": "application/xml; charset=utf-8" } });
}
