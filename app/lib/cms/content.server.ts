import type { BlocksContent } from "@strapi/blocks-react-renderer";
import * as z from "zod";

import { CMS_REVALIDATE, cmsTag, type CmsClient } from "./client.server.ts";
import { CmsError } from "./errors.server.ts";
import { localePrefixedPath } from "../locale-path.ts";

/**
 * The queries the public site makes, each with its response schema and cache policy.
 * Every one of them is public content: no user Authorization, so pages stay cacheable.
 */

export const CONTENT_TYPES = {
  page: "api::page.page",
  redirect: "api::redirect.redirect",
  navbar: "api::navbar.navbar",
  footer: "api::footer.footer",
} as const;

// Strapi's blocks editor output. The renderer knows the node types; here we only check
// that it is a list of typed nodes so a broken answer is caught before rendering.
const blocksSchema = z
  .array(z.looseObject({ type: z.string() }))
  .nullish()
  .transform((blocks) => (blocks ?? []) as unknown as BlocksContent);

const seoSchema = z.object({
  metaTitle: z.string().nullish(),
  metaDescription: z.string().nullish(),
});

const pageSchema = z.object({
  documentId: z.string(),
  locale: z.string(),
  title: z.string(),
  fullPath: z.string(),
  body: blocksSchema,
  seo: seoSchema.nullish().transform((seo) => seo ?? null),
});
export type Page = z.infer<typeof pageSchema>;

const redirectSchema = z.object({
  source: z.string(),
  destination: z.string().min(1),
  permanent: z.boolean().nullish().transform((permanent) => permanent ?? true),
});
export type Redirect = z.infer<typeof redirectSchema>;

const linkSchema = z.object({ label: z.string(), url: z.string() });
export type NavLink = z.infer<typeof linkSchema>;

const navigationSchema = z.object({
  links: z.array(linkSchema).nullish().transform((links) => links ?? []),
  note: z.string().nullish(),
});
export type Navigation = z.infer<typeof navigationSchema>;

const listOf = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item) });
const single = <T extends z.ZodType>(item: T) => z.object({ data: item });

/** The published page at `fullPath` in `locale`, or null. */
export async function findPage(cms: CmsClient, fullPath: string, locale: string): Promise<Page | null> {
  const { data } = await cms.get("/api/pages", listOf(pageSchema), {
    query: {
      filters: { fullPath: { $eq: fullPath } },
      locale,
      populate: { seo: true },
      pagination: { pageSize: 1 },
    },
    revalidate: CMS_REVALIDATE.pageData,
    pagePath: localePrefixedPath(fullPath, locale),
    omitUserAuthorization: true,
  });
  return data[0] ?? null;
}

/** The published redirect whose source is `source` (a locale-prefixed path), or null. */
export async function findRedirect(cms: CmsClient, source: string): Promise<Redirect | null> {
  const { data } = await cms.get("/api/redirects", listOf(redirectSchema), {
    query: { filters: { source: { $eq: source } }, pagination: { pageSize: 1 } },
    revalidate: CMS_REVALIDATE.pageData,
    pagePath: source,
    omitUserAuthorization: true,
  });
  return data[0] ?? null;
}

async function findNavigation(cms: CmsClient, uid: string, path: string, locale: string): Promise<Navigation | null> {
  try {
    const { data } = await cms.get(path, single(navigationSchema), {
      query: { locale, populate: { links: true } },
      revalidate: CMS_REVALIDATE.navigation,
      tags: [cmsTag(uid)],
      omitUserAuthorization: true,
    });
    return data;
  } catch (error) {
    // A single type nobody has filled in yet (in this locale) is a 404: render without it.
    if (error instanceof CmsError && error.kind === "not-found") return null;
    throw error;
  }
}

export const findNavbar = (cms: CmsClient, locale: string) =>
  findNavigation(cms, CONTENT_TYPES.navbar, "/api/navbar", locale);

export const findFooter = (cms: CmsClient, locale: string) =>
  findNavigation(cms, CONTENT_TYPES.footer, "/api/footer", locale);

const pageRefSchema = z.object({ fullPath: z.string(), locale: z.string(), updatedAt: z.string().nullish() });
const pageListSchema = z.object({
  data: z.array(pageRefSchema),
  meta: z.object({ pagination: z.object({ page: z.number(), pageCount: z.number() }) }),
});
export type PageRef = z.infer<typeof pageRefSchema>;

/**
 * Every published page in every locale, most recently updated first, `pageSize` at a time
 * (paged CMS requests, never one huge answer). Reads the CMS afresh: not a render's fetch.
 */
export async function* listPublishedPages(cms: CmsClient, pageSize = 100): AsyncGenerator<PageRef> {
  for (let page = 1; ; page++) {
    const { data, meta } = await cms.get("/api/pages", pageListSchema, {
      query: { fields: ["fullPath", "locale", "updatedAt"], locale: "*", sort: ["updatedAt:desc"], pagination: { page, pageSize } },
      revalidate: 0,
      omitUserAuthorization: true,
    });
    yield* data;
    if (page >= meta.pagination.pageCount) return;
  }
}
