import { blogPath } from "../blog/paths.ts";
import type { SitemapPage } from "./sitemap.ts";

/** What the blog's sitemap entries are made from: one published article in one locale. */
export interface BlogSitemapArticle {
  slug: string;
  locale: string;
  updatedAt?: string | null;
  category: { slug: string } | null;
}

const newer = (a: string | null | undefined, b: string | null | undefined) => ((a ?? "") > (b ?? "") ? a : b);

/**
 * The blog's sitemap entries: per locale with articles, its listing (`/blog`, lastmod the newest
 * article's) and its later pages (`/blog?page=N`, as many as `perPage` articles a page make), every
 * article (`/blog/<slug>`) and every category page that lists one (`/blog/category/<slug>`, and its
 * `?page=N`). A listing's later pages share its lastmod: any publish shifts them all. The locale
 * prefix is the sitemap's (canonicalPageUrl); `?page=N` follows it (sitemapEntry).
 */
export function blogSitemapPages(
  articles: readonly BlogSitemapArticle[],
  { perPage }: { perPage: number },
): SitemapPage[] {
  if (!Number.isInteger(perPage) || perPage < 1) throw new RangeError(`perPage must be a positive integer: ${perPage}`);
  const listings = new Map<string, { page: SitemapPage; articles: number }>();
  const categories = new Map<string, { page: SitemapPage; articles: number }>();
  const entries: SitemapPage[] = [];
  const count = (
    into: Map<string, { page: SitemapPage; articles: number }>,
    key: string,
    fullPath: string,
    article: BlogSitemapArticle,
  ) => {
    const listing = into.get(key) ?? { page: { fullPath, locale: article.locale, updatedAt: null }, articles: 0 };
    listing.page.updatedAt = newer(listing.page.updatedAt, article.updatedAt) ?? null;
    listing.articles++;
    into.set(key, listing);
  };
  for (const article of articles) {
    count(listings, article.locale, blogPath(), article);
    entries.push({ fullPath: blogPath({ slug: article.slug }), locale: article.locale, updatedAt: article.updatedAt });
    if (article.category) {
      count(
        categories,
        `${article.locale} ${article.category.slug}`,
        blogPath({ category: article.category.slug }),
        article,
      );
    }
  }
  /** Page 1 and every later page of one listing. */
  const withLaterPages = ({ page, articles: total }: { page: SitemapPage; articles: number }): SitemapPage[] => [
    page,
    ...Array.from({ length: Math.ceil(total / perPage) - 1 }, (_, i) => ({ ...page, page: i + 2 })),
  ];
  return [
    ...[...listings.values()].flatMap(withLaterPages),
    ...entries,
    ...[...categories.values()].flatMap(withLaterPages),
  ];
}

/**
 * The most sitemap entries `articles` published articles (every locale) can make, whatever their
 * locales and categories: each article's page; each locale's listing with its later pages (together
 * at most articles / perPage, plus one a locale the site serves: `locales`); each category's page with
 * its later pages (together at most articles / perPage, plus one a category, of which no more list
 * an article than there are articles).
 */
export function blogSitemapEntriesBound(articles: number, { perPage, locales }: { perPage: number; locales: number }) {
  if (articles <= 0) return 0;
  const laterPages = Math.ceil(articles / perPage);
  return articles + (laterPages + locales) + (laterPages + articles);
}
