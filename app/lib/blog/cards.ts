import type { ArticleSummary } from "../cms/articles.server.ts";
import { imageAttributes, type ImageAttributes, type MediaBase } from "../cms/media.ts";
import { localizedPath, type LocaleConfig } from "../locale-path.ts";
import { blogPath } from "./paths.ts";
import { formatArticleDate } from "./words.ts";

/** An article in a list (the blog's pages, a latest-articles section), ready to render. */
export interface ArticleCard {
  title: string;
  href: string;
  excerpt: string | null;
  /** ISO, for `<time dateTime>`; null when the article has none. */
  dateTime: string | null;
  /** As shown (`20 October 2026`), formatted on the server. */
  dateText: string | null;
  image: ImageAttributes | null;
  category: { name: string; href: string } | null;
  author: string | null;
}

/** The `sizes` of a card's cover (a column of the article list). */
export const CARD_IMAGE_SIZES =
  "(min-width: 75rem) 23rem, (min-width: 64rem) calc(33vw - 2rem), (min-width: 40rem) calc(50vw - 2.25rem), calc(100vw - 3rem)";

export function articleCard(
  article: ArticleSummary,
  { base, config, lazy }: { base: MediaBase; config: LocaleConfig; lazy: boolean },
): ArticleCard {
  const href = (path: string) => localizedPath(path, article.locale, config);
  return {
    title: article.title,
    href: href(blogPath({ slug: article.slug })),
    excerpt: article.excerpt,
    dateTime: article.date,
    dateText: formatArticleDate(article.date, article.locale),
    image: article.cover ? imageAttributes(article.cover, { base, lazy, sizes: CARD_IMAGE_SIZES }) : null,
    category: article.category
      ? { name: article.category.name, href: href(blogPath({ category: article.category.slug })) }
      : null,
    author: article.author?.name ?? null,
  };
}

/** The cards of a listing; the first one eager (above the fold) when asked. */
export function articleCards(
  articles: readonly ArticleSummary[],
  options: { base: string | null; config: LocaleConfig; eagerFirst: boolean },
): ArticleCard[] {
  return articles.map((article, index) =>
    articleCard(article, { base: options.base, config: options.config, lazy: !(options.eagerFirst && index === 0) }),
  );
}
