import { Link } from "react-router";

import type { Route } from "./+types/blog";
import { ArticleList } from "../components/blog/article-list.tsx";
import { articleCards } from "../lib/blog/cards.ts";
import { blogPath, canonicalPageParam, listingPagePath, parsePageParam } from "../lib/blog/paths.ts";
import { blogWords } from "../lib/blog/words.ts";
import { findCategory, findCategoryLocales, listArticles } from "../lib/cms/articles.server.ts";
import { loadErrorText } from "../lib/cms/error-page.server.ts";
import { withCmsErrors } from "../lib/cms/http-errors.server.ts";
import { contentNotFound, contentRouteContext, pathLocale } from "../lib/content-route.server.ts";
import { localizedPath } from "../lib/locale-path.ts";
import { headMeta, pageHead, SITE_NAME } from "../lib/seo/head.ts";
import { canonicalPageUrl } from "../lib/seo/site-url.ts";

/**
 * The blog's listing (`/blog`, `/de/blog`) and a category's (`/blog/category/<slug>`): the
 * published articles of the locale, newest first, ARTICLES_PER_PAGE a page, `?page=N` for the
 * others (declared as the page's cache query: one cache entry per real page, every invalid value
 * the same 404). Past the last page: 404. docs/cms-contract.md, "Articles".
 */
export const handle = { cacheQuery: { page: canonicalPageParam } };

export async function loader({ context, url, params }: Route.LoaderArgs) {
  const { cms, log, config, origin, mediaBase } = contentRouteContext(context);
  const categorySlug = "category" in params ? params.category : undefined;
  const base = blogPath({ category: categorySlug });
  const locale = pathLocale(url.pathname, base, config);
  if (!locale) throw await contentNotFound(context, config.defaultLocale);
  const page = parsePageParam(url.searchParams.get("page"));
  if (page === null) throw await contentNotFound(context, locale);

  return withCmsErrors(
    log,
    async () => {
      const words = blogWords(locale);
      const category = categorySlug ? await findCategory(cms, categorySlug, locale) : null;
      if (categorySlug && !category) throw await contentNotFound(context, locale);
      // A category's articles: the list filtered by its documentId (what the CMS revalidates when one joins or leaves it).
      const listing = await listArticles(cms, { locale, page, categoryId: category?.documentId });
      // Page 1 of an empty blog is the (empty) blog; any page past the last one is no page.
      if (page > Math.max(listing.pageCount, 1)) throw await contentNotFound(context, locale);

      const translations = category
        ? (await findCategoryLocales(cms, category.documentId)).map((t) => ({
            locale: t.locale,
            fullPath: blogPath({ category: t.slug }),
          }))
        : config.locales.map((other) => ({ locale: other, fullPath: base }));
      const title = category ? `${category.name} | ${words.blog}` : words.blog;
      const fullPath = category ? blogPath({ category: category.slug }) : base;
      const head = pageHead({
        page: { title, fullPath, locale, seo: { metaDescription: words.blogDescription } },
        // Only page 1 has counterparts in the other locales.
        translations: page === 1 ? translations : [],
        origin,
        mediaBase,
        config,
      });
      if (page > 1) {
        head.title = `${title} (${words.pageOf(page, listing.pageCount)}) | ${SITE_NAME}`;
        head.canonical = head.canonical && `${head.canonical}?page=${page}`;
        head.alternates = [];
      }
      const listingPath = localizedPath(fullPath, locale, config);
      return {
        locale,
        // The header's locale switcher (SwitcherData): the listing (or category) in each locale, page 1.
        translations,
        heading: category ? category.name : words.blog,
        articles: articleCards(listing.articles, { base: mediaBase, config, eagerFirst: true }),
        page,
        pageCount: listing.pageCount,
        newer: page > 1 ? listingPagePath(listingPath, page - 1) : null,
        older: page < listing.pageCount ? listingPagePath(listingPath, page + 1) : null,
        allArticles: category ? localizedPath(blogPath(), locale, config) : null,
        feed: canonicalPageUrl(origin, blogPath({ feed: true }), locale, config),
        head,
      };
    },
    (error) => (error.status === 503 ? Promise.resolve(null) : loadErrorText(context, "error", locale)),
  );
}

export function meta({ loaderData }: Route.MetaArgs) {
  if (!loaderData) return [{ title: SITE_NAME }];
  const words = blogWords(loaderData.locale);
  return [
    ...headMeta(loaderData.head),
    ...(loaderData.feed
      ? [{ tagName: "link", rel: "alternate", type: "application/rss+xml", title: words.feed, href: loaderData.feed }]
      : []),
  ];
}

export default function Blog({ loaderData }: Route.ComponentProps) {
  const words = blogWords(loaderData.locale);
  const { page, pageCount } = loaderData;
  return (
    <section className="blog">
      <h1>{loaderData.heading}</h1>
      {loaderData.allArticles && (
        <p>
          <Link to={loaderData.allArticles}>{words.allArticles}</Link>
        </p>
      )}
      {loaderData.articles.length === 0 ? <p>{words.noArticles}</p> : <ArticleList articles={loaderData.articles} />}
      {pageCount > 1 && (
        <nav className="blog-pager" aria-label={words.pageOf(page, pageCount)}>
          {loaderData.newer ? (
            <Link to={loaderData.newer} rel="prev">
              {words.newer}
            </Link>
          ) : (
            <span />
          )}
          <span>{words.pageOf(page, pageCount)}</span>
          {loaderData.older ? (
            <Link to={loaderData.older} rel="next">
              {words.older}
            </Link>
          ) : (
            <span />
          )}
        </nav>
      )}
    </section>
  );
}
