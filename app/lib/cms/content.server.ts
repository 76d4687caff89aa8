import type { BlocksContent } from "@strapi/blocks-react-renderer";
import * as z from "zod";

import { CMS_REVALIDATE, type CmsClient, type CmsFetchOptions } from "./client.server.ts";
import { CmsError } from "./errors.server.ts";
import { cmsLinkSchema, LINK_POPULATE, navEntrySchema } from "./links.server.ts";
import { withPlacedAlt } from "./placed-alt.ts";
import { SECTIONS_POPULATE, sectionsSchema } from "./sections.server.ts";
import { localePrefixedPath } from "../locale-path.ts";

/**
 * The queries the public site makes, each with its response schema and cache policy.
 * Every one of them is public content: no user Authorization, so pages stay cacheable. Each
 * names its content type; the client records what it read (docs/architecture.md, "What a render
 * depends on").
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

/** A Strapi media file, as much of it as a share image needs. */
const imageSchema = z.object({
  url: z.string(),
  alternativeText: z.string().nullish(),
  width: z.number().nullish(),
  height: z.number().nullish(),
  mime: z.string().nullish(),
});
export type CmsImage = z.infer<typeof imageSchema>;

const seoSchema = z
  .object({
    metaTitle: z.string().nullish(),
    metaDescription: z.string().nullish(),
    shareImage: imageSchema.nullish(),
    shareImageAlt: z.string().nullish(),
  })
  .transform(({ shareImageAlt, ...seo }) => ({ ...seo, shareImage: withPlacedAlt(seo.shareImage, shareImageAlt) }));

const pageSchema = z.object({
  documentId: z.string(),
  locale: z.string(),
  title: z.string(),
  fullPath: z.string(),
  body: blocksSchema,
  // The sections dynamic zone (app/lib/cms/sections.server.ts): unknown types pass, as `unknown`.
  sections: sectionsSchema,
  seo: seoSchema.nullish().transform((seo) => seo ?? null),
});
export type Page = z.infer<typeof pageSchema>;

const redirectSchema = z.object({
  source: z.string(),
  destination: z.string().min(1),
  permanent: z
    .boolean()
    .nullish()
    .transform((permanent) => permanent ?? true),
});
export type Redirect = z.infer<typeof redirectSchema>;

const navbarSchema = z.object({
  links: z
    .array(navEntrySchema)
    .nullish()
    .transform((links) => links ?? []),
});
export type Navbar = z.infer<typeof navbarSchema>;

const footerSchema = z.object({
  links: z
    .array(cmsLinkSchema)
    .nullish()
    .transform((links) => links ?? []),
  note: z.string().nullish(),
});
export type Footer = z.infer<typeof footerSchema>;

const listOf = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item) });
const single = <T extends z.ZodType>(item: T) => z.object({ data: item });
// Each answer's schema is made once: zod compiles a schema on its first parse, and schemas made
// per call cost every render that compilation (bench/README.md, "Uncached render").
const pagesAnswer = listOf(pageSchema);
const redirectsAnswer = listOf(redirectSchema);
const navbarAnswer = single(navbarSchema);
const footerAnswer = single(footerSchema);

/**
 * The published page at `fullPath` in `locale`, or null. With `draft` (preview): its draft
 * version, read with that token, never cached (docs/cms-contract.md, "Preview"). `moreSections`:
 * the populate of the sections the content types bring (app/content-types/modules.server.ts), which
 * the page route passes (this module is also loaded outside Vite, where their registry is not).
 */
export async function findPage(
  cms: CmsClient,
  fullPath: string,
  locale: string,
  draft?: CmsFetchOptions["draft"],
  moreSections: Readonly<Record<string, unknown>> = {},
): Promise<Page | null> {
  const { data } = await cms.get("/api/pages", pagesAnswer, {
    draft,
    type: CONTENT_TYPES.page,
    query: {
      filters: { fullPath: { $eq: fullPath } },
      locale,
      populate: {
        seo: { populate: { shareImage: { fields: ["url", "alternativeText", "width", "height", "mime"] } } },
        sections: { on: { ...SECTIONS_POPULATE.on, ...moreSections } },
      },
      pagination: { pageSize: 1 },
    },
    revalidate: CMS_REVALIDATE.pageData,
    pagePath: localePrefixedPath(fullPath, locale),
    omitUserAuthorization: true,
  });
  return data[0] ?? null;
}

const pageLocaleSchema = z.object({ locale: z.string(), fullPath: z.string() });
export type PageLocale = z.infer<typeof pageLocaleSchema>;
const pageLocalesAnswer = listOf(pageLocaleSchema);

/**
 * Every published locale of the page document `documentId` (its own included): the page's
 * hreflang alternates. Drafts are never listed (Strapi REST reads published entries only).
 * Records the document's tag, which the CMS sends when any locale of it is published,
 * unpublished or deleted: the pages of its other locales get their alternates anew.
 */
export async function findPageLocales(cms: CmsClient, documentId: string, pagePath: string): Promise<PageLocale[]> {
  const { data } = await cms.get("/api/pages", pageLocalesAnswer, {
    query: {
      filters: { documentId: { $eq: documentId } },
      locale: "*",
      fields: ["fullPath", "locale"],
      pagination: { pageSize: 100 },
    },
    type: CONTENT_TYPES.page,
    revalidate: CMS_REVALIDATE.pageData,
    pagePath,
    omitUserAuthorization: true,
  });
  return data;
}

/** The published redirect whose source is `source` (a locale-prefixed path), or null. */
export async function findRedirect(cms: CmsClient, source: string): Promise<Redirect | null> {
  const { data } = await cms.get("/api/redirects", redirectsAnswer, {
    type: CONTENT_TYPES.redirect,
    query: { filters: { source: { $eq: source } }, pagination: { pageSize: 1 } },
    revalidate: CMS_REVALIDATE.pageData,
    pagePath: source,
    omitUserAuthorization: true,
  });
  return data[0] ?? null;
}

async function findNavigation<Schema extends typeof navbarAnswer | typeof footerAnswer>(
  cms: CmsClient,
  { uid, path, answer, populate }: { uid: string; path: string; answer: Schema; populate: Record<string, unknown> },
  locale: string,
): Promise<z.infer<Schema>["data"] | null> {
  try {
    const { data } = (await cms.get(path, answer, {
      query: { locale, populate },
      type: uid,
      revalidate: CMS_REVALIDATE.navigation,
      omitUserAuthorization: true,
    })) as z.infer<Schema>;
    return data;
  } catch (error) {
    // A single type nobody has filled in yet (in this locale) is a 404: render without it (the call
    // recorded the type's tag: its first publish reaches this render).
    if (error instanceof CmsError && error.kind === "not-found") return null;
    throw error;
  }
}

// Links by reference are populated with their target's path (app/lib/cms/links.server.ts); a navbar
// entry's child links too.
const NAVBAR_POPULATE = {
  links: { populate: { ...LINK_POPULATE.populate, children: LINK_POPULATE } },
};

export const findNavbar = (cms: CmsClient, locale: string): Promise<Navbar | null> =>
  findNavigation(
    cms,
    { uid: CONTENT_TYPES.navbar, path: "/api/navbar", answer: navbarAnswer, populate: NAVBAR_POPULATE },
    locale,
  );

export const findFooter = (cms: CmsClient, locale: string): Promise<Footer | null> =>
  findNavigation(
    cms,
    { uid: CONTENT_TYPES.footer, path: "/api/footer", answer: footerAnswer, populate: { links: LINK_POPULATE } },
    locale,
  );

const pageRefSchema = z.object({ fullPath: z.string(), locale: z.string(), updatedAt: z.string().nullish() });
const pageListSchema = z.object({
  data: z.array(pageRefSchema),
  meta: z.object({ pagination: z.object({ page: z.number(), pageCount: z.number() }) }),
});
export type PageRef = z.infer<typeof pageRefSchema>;

export interface ListPagesOptions {
  /** Entries per CMS request (Strapi's maxLimit is 100). */
  pageSize?: number;
  /** Strapi sort; default most recently updated first. */
  sort?: string[];
  /** CMS requests in flight at once after the first (which tells how many there are). */
  concurrency?: number;
  /**
   * 0 (default): read afresh, outside any render (the warm start), never from or into the data
   * cache. Otherwise the interval of the answers in the data cache and of the render that lists
   * the pages (the sitemap's: its index and every part read the same answers).
   */
  revalidate?: number;
}

/**
 * Every published page in every locale, `pageSize` at a time (paged CMS requests, never one
 * huge answer), in the order of `sort`.
 */
export async function* listPublishedPages(cms: CmsClient, options: ListPagesOptions = {}): AsyncGenerator<PageRef> {
  const { pageSize = 100, sort = ["updatedAt:desc"], concurrency = 1, revalidate = 0 } = options;
  const fetchPage = (page: number) =>
    cms.get("/api/pages", pageListSchema, {
      type: CONTENT_TYPES.page,
      query: { fields: ["fullPath", "locale", "updatedAt"], locale: "*", sort, pagination: { page, pageSize } },
      revalidate,
      omitUserAuthorization: true,
    });
  const first = await fetchPage(1);
  yield* first.data;
  const pageCount = first.meta.pagination.pageCount;
  const pending: Array<ReturnType<typeof fetchPage>> = [];
  let next = 2;
  const fill = () => {
    while (next <= pageCount && pending.length < concurrency) {
      const request = fetchPage(next++);
      // Awaited in order below; until then a failure must not count as unhandled.
      request.catch(() => {});
      pending.push(request);
    }
  };
  fill();
  for (let request = pending.shift(); request; request = pending.shift()) {
    const { data } = await request;
    fill();
    yield* data;
  }
}
