import * as z from "zod";

import { articleCard } from "../../lib/blog/cards.ts";
import { blogPath } from "../../lib/blog/paths.ts";
import { blogWords } from "../../lib/blog/words.ts";
import { listArticles, type ArticleSummary } from "../../lib/cms/articles.server.ts";
import { localizedPath } from "../../lib/locale-path.ts";
import { defineSection } from "../types.ts";
import type { LatestArticlesSection } from "./latest-articles.tsx";

/**
 * The latest-articles section (cms/src/components/sections/latest-articles.json): the newest
 * `count` articles of the page's locale, of the section's category when it has one. Its `load` is
 * one CMS call, which records the list it shows (the category's when it has one), so an article
 * joining or leaving it reaches the page.
 */
export const latestArticlesSection = defineSection({
  populate: { populate: { category: { fields: ["slug", "name"] } } },
  schema: z.object({
    heading: z
      .string()
      .nullish()
      .transform((value) => (value?.trim() ? value : null)),
    // 1 to 12 in the CMS; a missing one is the CMS's default.
    count: z
      .number()
      .int()
      .min(1)
      .max(12)
      .nullish()
      .transform((count) => count ?? 3),
    // Strapi 5 gives every populated relation its documentId: the section's list is filtered by it.
    category: z
      .object({ documentId: z.string(), slug: z.string(), name: z.string() })
      .nullish()
      .transform((category) => category ?? null),
  }),
  load: async (cms, section, locale): Promise<ArticleSummary[]> =>
    (await listArticles(cms, { locale, page: 1, pageSize: section.count, categoryId: section.category?.documentId }))
      .articles,
  prepare: (section, articles, { base, config, locale }): Omit<LatestArticlesSection, "__component"> => ({
    heading: section.heading,
    articles: (articles ?? []).map((article) => articleCard(article, { base, config, lazy: true })),
    blog: { href: localizedPath(blogPath(), locale, config), label: blogWords(locale).allArticles },
  }),
});
