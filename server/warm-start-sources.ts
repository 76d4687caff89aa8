import type { WarmStartSource } from "@cms-site/page-cache";

import { blogPath } from "../app/lib/blog/paths.ts";
import { newestArticles } from "../app/lib/cms/articles.server.ts";
import { createCmsClient } from "../app/lib/cms/client.server.ts";
import { listPublishedPages } from "../app/lib/cms/content.server.ts";
import type { Env } from "../app/lib/env.server.ts";
import { localizedPath } from "../app/lib/locale-path.ts";
import { localeConfigOf } from "../app/lib/locales.server.ts";

/**
 * What this site's page cache warms after a start (CACHE_WARM_PAGES, docs/configuration.md), one
 * path of each in turn: the blog's listing and feed in each locale, the most recently updated CMS
 * pages, the newest articles. The package requests them; which they are is the site's to say.
 */
export function warmStartSources(config: Env): WarmStartSource[] {
  const cms = createCmsClient({
    baseUrl: config.CMS_URL,
    apiToken: config.CMS_REST_READONLY_API_KEY,
    timeoutMs: config.CMS_FETCH_TIMEOUT_MS,
  });
  const locales = localeConfigOf(config);
  /** A page's or an article's site path; none ("") for a locale the site does not serve. */
  const pathOf = (fullPath: string, locale: string) =>
    locales.locales.includes(locale) ? localizedPath(fullPath, locale, locales) : "";
  return [
    {
      name: "the blog's listings",
      paths: async function* () {
        for (const locale of locales.locales) {
          yield pathOf(blogPath(), locale);
          yield pathOf(blogPath({ feed: true }), locale);
        }
      },
    },
    {
      name: "the CMS's pages",
      paths: async function* () {
        for await (const page of listPublishedPages(cms)) yield pathOf(page.fullPath, page.locale);
      },
    },
    {
      name: "the newest articles",
      paths: async function* () {
        for await (const article of newestArticles(cms)) yield pathOf(blogPath({ slug: article.slug }), article.locale);
      },
    },
  ];
}
