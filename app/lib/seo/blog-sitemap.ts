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
 * article's), every article (`/blog/<slug>`) and every category page that lists one
 * (`/blog/category/<slug>`). Listing pages past the first are left out (they move with every
 * publish). The locale prefix is the sitemap's (canonicalPageUrl).
 */
export function blogSitemapPages(articles: readonly BlogSitemapArticle[]): SitemapPage[] {
  const listings = new Map<string, SitemapPage>();
  const categories = new Map<string, SitemapPage>();
  const entries: SitemapPage[] = [];
  for (const article of articles) {
    const listing = listings.get(article.locale) ?? { fullPath: blogPath(), locale: article.locale, updatedAt: null };
    listing.updatedAt = newer(listing.updatedAt, article.updatedAt) ?? null;
    listings.set(article.locale, listing);
    entries.push({ fullPath: blogPath({ slug: article.slug }), locale: article.locale, updatedAt: article.updatedAt });
    if (article.category) {
      const key = `${article.locale} ${article.category.slug}`;
      const page = categories.get(key) ?? {
        fullPath: blogPath({ category: article.category.slug }),
        locale: article.locale,
        updatedAt: null,
      };
      page.updatedAt = newer(page.updatedAt, article.updatedAt) ?? null;
      categories.set(key, page);
    }
  }
  return [...listings.values(), ...entries, ...categories.values()];
}
