import type { BlocksContent } from "@strapi/blocks-react-renderer";
import * as z from "zod";

import { CMS_REVALIDATE, type CmsClient, type CmsFetchOptions } from "./client.server.ts";
import type { MediaFile } from "./media.ts";
import { withPlacedAlt } from "./placed-alt.ts";
import { mediaSchema } from "./sections.server.ts";
import { localePrefixedPath } from "../locale-path.ts";
import { blogPath } from "../blog/paths.ts";

/**
 * The blog's queries (docs/cms-contract.md, "Articles"): articles, their categories and authors.
 * Each call names its type; the client records what it read (docs/architecture.md, "What a render
 * depends on"): a listing, a category page, the feed, the sitemap and a latest-articles section
 * record the list they show (a category's: filtered by the category's documentId) and each article
 * in it; an article's page records the article (and is reached by its path); its previous/next
 * links record the two articles and the article's neighbours tag (`dependsOn`: the CMS sends it
 * when an article joins, leaves or moves next to this one), not the list. A category's or an author's name shown with an
 * article is the CMS's to follow: renaming one revalidates its articles.
 */

export const ARTICLE_UID = "api::article.article";
export const CATEGORY_UID = "api::category.category";
export const AUTHOR_UID = "api::author.author";

/** Articles on one page of a listing. */
export const ARTICLES_PER_PAGE = 10;

const MEDIA_FIELDS = ["url", "alternativeText", "width", "height", "formats", "mime", "updatedAt"];

const categoryRefSchema = z.object({ name: z.string(), slug: z.string() });
const authorSchema = z.object({ name: z.string(), role: z.string().nullish() });

/** The date an article shows and is sorted by: `publishDate`, else (a row from before it) `publishedAt`. */
const articleBase = {
  documentId: z.string(),
  locale: z.string(),
  title: z.string(),
  slug: z.string(),
  excerpt: z
    .string()
    .nullish()
    .transform((value) => (value?.trim() ? value : null)),
  publishDate: z.string().nullish(),
  publishedAt: z.string().nullish(),
  updatedAt: z.string().nullish(),
  cover: mediaSchema,
  coverAlt: z.string().nullish(),
  category: categoryRefSchema.nullish().transform((value) => value ?? null),
  author: authorSchema.nullish().transform((value) => value ?? null),
};

/** The article's date, and its cover's alternative text where it is placed (app/lib/cms/placed-alt.ts). */
const withDate = <
  T extends {
    publishDate?: string | null;
    publishedAt?: string | null;
    cover: MediaFile | null;
    coverAlt?: string | null;
  },
>({
  coverAlt,
  ...article
}: T) => ({
  ...article,
  cover: withPlacedAlt(article.cover, coverAlt),
  date: article.publishDate ?? article.publishedAt ?? null,
});

export const articleSummarySchema = z.object(articleBase).transform(withDate);
export type ArticleSummary = z.output<typeof articleSummarySchema>;

const blocksSchema = z
  .array(z.looseObject({ type: z.string() }))
  .nullish()
  .transform((blocks) => (blocks ?? []) as unknown as BlocksContent);

export const articleSchema = z.object({ ...articleBase, body: blocksSchema }).transform(withDate);
export type Article = z.output<typeof articleSchema>;

const paginationSchema = z.object({
  page: z.number(),
  pageSize: z.number(),
  pageCount: z.number(),
  total: z.number(),
});
const articleListAnswer = z.object({
  data: z.array(articleSummarySchema),
  meta: z.object({ pagination: paginationSchema }),
});
const articleAnswer = z.object({ data: z.array(articleSchema) });
const adjacentAnswer = z.object({
  data: z.array(z.object({ title: z.string(), slug: z.string(), locale: z.string() })),
});
const localesAnswer = z.object({ data: z.array(z.object({ locale: z.string(), slug: z.string() })) });
const categorySchema = z.object({ documentId: z.string(), locale: z.string(), name: z.string(), slug: z.string() });
export type Category = z.infer<typeof categorySchema>;
const categoryAnswer = z.object({ data: z.array(categorySchema) });

/** Newest first; the slug breaks a tie, so pages never overlap. */
export const ARTICLE_SORT = ["publishDate:desc", "slug:asc"];

const SUMMARY_POPULATE = {
  cover: { fields: MEDIA_FIELDS },
  category: { fields: ["name", "slug"] },
  author: { fields: ["name", "role"] },
};
const SUMMARY_FIELDS = ["title", "slug", "excerpt", "publishDate", "publishedAt", "updatedAt", "locale", "coverAlt"];

export interface ArticlePage {
  articles: ArticleSummary[];
  page: number;
  pageCount: number;
  total: number;
}

/** One page (1-based) of the published articles of `locale`, newest first, optionally of one category. */
export async function listArticles(
  cms: CmsClient,
  {
    locale,
    page,
    pageSize = ARTICLES_PER_PAGE,
    categoryId,
  }: {
    locale: string;
    page: number;
    pageSize?: number;
    /** The category's documentId: only its articles (the list filtered by that relation). */
    categoryId?: string;
  },
): Promise<ArticlePage> {
  const { data, meta } = await cms.get("/api/articles", articleListAnswer, {
    query: {
      locale,
      fields: SUMMARY_FIELDS,
      populate: SUMMARY_POPULATE,
      sort: ARTICLE_SORT,
      ...(categoryId ? { filters: { category: { documentId: { $eq: categoryId } } } } : {}),
      pagination: { page, pageSize },
    },
    type: ARTICLE_UID,
    revalidate: CMS_REVALIDATE.pageData,
    omitUserAuthorization: true,
  });
  return { articles: data, page, pageCount: meta.pagination.pageCount, total: meta.pagination.total };
}

/**
 * The published article at `slug` in `locale`, or null. Reached by its path (`/blog/<slug>`) and its
 * document's tag. With `draft` (preview): its draft version, read with that token, never cached
 * (docs/cms-contract.md, "Preview").
 */
export async function findArticle(
  cms: CmsClient,
  slug: string,
  locale: string,
  draft?: CmsFetchOptions["draft"],
): Promise<Article | null> {
  const { data } = await cms.get("/api/articles", articleAnswer, {
    draft,
    query: {
      filters: { slug: { $eq: slug } },
      locale,
      populate: SUMMARY_POPULATE,
      pagination: { pageSize: 1 },
    },
    type: ARTICLE_UID,
    revalidate: CMS_REVALIDATE.pageData,
    pagePath: localePrefixedPath(blogPath({ slug }), locale),
    omitUserAuthorization: true,
  });
  return data[0] ?? null;
}

export interface AdjacentArticle {
  title: string;
  slug: string;
}

/**
 * The articles around `article` in the listing's order: `previous` is the next older one, `next`
 * the next newer one (null at either end). They depend on those two documents and on the
 * article's neighbours tag, which the CMS sends when an article joins, leaves or moves next to it
 * in the listing's order (at either end too, where there is no neighbour to record).
 */
export async function adjacentArticles(
  cms: CmsClient,
  article: Pick<Article, "documentId" | "slug" | "locale" | "publishDate">,
): Promise<{ previous: AdjacentArticle | null; next: AdjacentArticle | null }> {
  if (!article.publishDate) return { previous: null, next: null };
  const ask = async (direction: "older" | "newer") => {
    const older = direction === "older";
    const date = article.publishDate;
    const { data } = await cms.get("/api/articles", adjacentAnswer, {
      query: {
        locale: article.locale,
        fields: ["title", "slug", "locale"],
        // The listing's order (publishDate desc, slug asc), one step either way.
        filters: {
          slug: { $ne: article.slug },
          $or: older
            ? [{ publishDate: { $lt: date } }, { publishDate: { $eq: date }, slug: { $gt: article.slug } }]
            : [{ publishDate: { $gt: date } }, { publishDate: { $eq: date }, slug: { $lt: article.slug } }],
        },
        sort: older ? ARTICLE_SORT : ["publishDate:asc", "slug:desc"],
        pagination: { pageSize: 1 },
      },
      type: ARTICLE_UID,
      dependsOn: { neighboursOf: article.documentId },
      revalidate: CMS_REVALIDATE.pageData,
      omitUserAuthorization: true,
    });
    const found = data[0];
    return found ? { title: found.title, slug: found.slug } : null;
  };
  const [previous, next] = await Promise.all([ask("older"), ask("newer")]);
  return { previous, next };
}

/** Every published locale of an article document (hreflang): records the document's tag. */
export async function findArticleLocales(
  cms: CmsClient,
  documentId: string,
): Promise<Array<{ locale: string; slug: string }>> {
  const { data } = await cms.get("/api/articles", localesAnswer, {
    query: {
      filters: { documentId: { $eq: documentId } },
      locale: "*",
      fields: ["slug", "locale"],
      pagination: { pageSize: 100 },
    },
    type: ARTICLE_UID,
    revalidate: CMS_REVALIDATE.pageData,
    omitUserAuthorization: true,
  });
  return data;
}

/** The category at `slug` in `locale`, or null. */
export async function findCategory(cms: CmsClient, slug: string, locale: string): Promise<Category | null> {
  const { data } = await cms.get("/api/categories", categoryAnswer, {
    query: {
      filters: { slug: { $eq: slug } },
      locale,
      fields: ["name", "slug", "locale"],
      pagination: { pageSize: 1 },
    },
    type: CATEGORY_UID,
    revalidate: CMS_REVALIDATE.pageData,
    // A lookup at the category page's path: the CMS sends it when a category is published there.
    pagePath: localePrefixedPath(blogPath({ category: slug }), locale),
    omitUserAuthorization: true,
  });
  return data[0] ?? null;
}

/** Every locale of a category document (hreflang of its page). */
export async function findCategoryLocales(cms: CmsClient, documentId: string): Promise<Category[]> {
  const { data } = await cms.get("/api/categories", categoryAnswer, {
    query: {
      filters: { documentId: { $eq: documentId } },
      locale: "*",
      fields: ["name", "slug", "locale"],
      pagination: { pageSize: 100 },
    },
    type: CATEGORY_UID,
    revalidate: CMS_REVALIDATE.pageData,
    omitUserAuthorization: true,
  });
  return data;
}

const articleRefAnswer = z.object({
  data: z.array(
    z.object({
      slug: z.string(),
      locale: z.string(),
      updatedAt: z.string().nullish(),
      category: z
        .object({ slug: z.string() })
        .nullish()
        .transform((value) => value ?? null),
    }),
  ),
  meta: z.object({ pagination: z.object({ page: z.number(), pageCount: z.number() }) }),
});
export type ArticleRef = z.output<typeof articleRefAnswer>["data"][number];

/**
 * Every published article in every locale (the sitemap), 100 at a time, in a stable order; records
 * the list of every locale and each article; kept in the data cache (the sitemap's index and every
 * part read the same answers).
 */
export function listAllArticles(cms: CmsClient): AsyncGenerator<ArticleRef> {
  return articleRefs(cms, ["locale:asc", "slug:asc"], CMS_REVALIDATE.pageData);
}

/**
 * The published articles of every locale, newest first (the listing's order, locales mixed), 100
 * at a time: the warm start requests the newest (server/warm-start-sources.ts). Read afresh, outside any render.
 */
export function newestArticles(cms: CmsClient): AsyncGenerator<ArticleRef> {
  return articleRefs(cms, ARTICLE_SORT, 0);
}

async function* articleRefs(cms: CmsClient, sort: string[], revalidate: number): AsyncGenerator<ArticleRef> {
  for (let page = 1, pageCount = 1; page <= pageCount; page++) {
    const answer = await cms.get("/api/articles", articleRefAnswer, {
      query: {
        locale: "*",
        fields: ["slug", "locale", "updatedAt"],
        populate: { category: { fields: ["slug"] } },
        sort,
        pagination: { page, pageSize: 100 },
      },
      type: ARTICLE_UID,
      revalidate,
      omitUserAuthorization: true,
    });
    pageCount = answer.meta.pagination.pageCount;
    yield* answer.data;
  }
}
