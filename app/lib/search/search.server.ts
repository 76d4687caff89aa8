import * as z from "zod";

import type { CmsClient } from "../cms/client.server.ts";

/**
 * One page of the site's search, from the CMS's `GET /api/site-search` (the site-search plugin,
 * docs/search.md), asked with the read-only token. Never kept in the data cache (`revalidate: 0`):
 * one entry per query a stranger types would be a cache a stranger fills.
 */
const resultSchema = z.object({
  type: z.string(),
  documentId: z.string(),
  locale: z.string(),
  /** Without the locale's prefix: `/company`, `/blog/<slug>`. */
  path: z.string(),
  /** Marked with U+0002…U+0003 (marked-text.ts). */
  title: z.string(),
  snippet: z.string(),
});

const answerSchema = z.object({
  data: z.array(resultSchema),
  meta: z.object({
    terms: z.array(z.string()),
    pagination: z.object({
      page: z.number().int(),
      pageSize: z.number().int(),
      pageCount: z.number().int(),
      total: z.number().int(),
    }),
  }),
});

export type SearchResult = z.infer<typeof resultSchema>;
export type SearchAnswer = z.infer<typeof answerSchema>;

export const SEARCH_TYPE = "plugin::site-search.search";

export function searchCms(cms: CmsClient, { q, locale, page }: { q: string; locale: string; page: number }) {
  return cms.get("/api/site-search", answerSchema, {
    type: SEARCH_TYPE,
    query: { q, locale, page },
    revalidate: 0,
    omitUserAuthorization: true,
  });
}
