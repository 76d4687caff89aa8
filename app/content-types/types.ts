import type { ComponentType } from "react";
import type * as z from "zod";

import type { CmsClient } from "../lib/cms/client.server.ts";
import type { MediaBase } from "../lib/cms/media.ts";
import type { LocaleConfig } from "../lib/locale-path.ts";
import type { SitemapPage } from "../lib/seo/sitemap.ts";

/**
 * The parts of a content type (app/content-types/<name>/), each in the file the environment that
 * needs it reads: React Router's route config (`routes.ts`), the server (`module.server.ts`) and
 * the browser as well as the server (`sections.tsx`, the components). The split follows React
 * Router's rule that nothing the browser loads may import a `.server` module. See
 * docs/decisions/0048-content-types-as-modules.md.
 */

/** What a section's `prepare` knows of the page it is on. */
export interface SectionContext {
  locale: string;
  config: LocaleConfig;
  base: MediaBase;
}

/**
 * A section (a component of the CMS's `sections` category) a content type brings to pages: how it
 * is asked for (`populate`, Strapi 5 names each component of a dynamic zone), checked (`schema`),
 * what the page's loader reads for it (`load`, one CMS call that records what it shows) and what
 * its component gets (`prepare`: plain data, rendered alike on the server and in the browser).
 */
export interface SectionDefinition<Cms = unknown, Loaded = unknown, Rendered extends object = object> {
  populate: true | { populate: Record<string, unknown> };
  schema: z.ZodType<Cms>;
  load?: (cms: CmsClient, section: Cms, locale: string) => Promise<Loaded>;
  prepare: (section: Cms, loaded: Loaded | undefined, context: SectionContext) => Rendered;
}

/** A section definition with its types checked where it is written, then stored without them. */
export const defineSection = <Cms, Loaded, Rendered extends object>(
  definition: SectionDefinition<Cms, Loaded, Rendered>,
): SectionDefinition => definition as unknown as SectionDefinition;

/** A content type's server side (`module.server.ts`'s default export). */
export interface ContentTypeServer {
  /** The Strapi UID (`api::article.article`). */
  uid: string;
  /** Where its documents are read (`/api/articles`): the open preview's draft version (docs/live-preview.md). */
  restPath?: string;
  /** Its sitemap entries, after the pages'; `bound` is how many they can be at most, from a count alone. */
  sitemap?: {
    entries(cms: CmsClient): Promise<SitemapPage[]>;
    bound(cms: CmsClient, site: { locales: number }): Promise<number>;
  };
  /** The sections it brings to pages, by component UID (`sections.latest-articles`). */
  sections?: Readonly<Record<string, SectionDefinition>>;
}

/** A content type's section components (`sections.tsx`'s default export), by component UID. */
// The props are each section's own prepared type: checked in the module, not across the registry.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ContentTypeComponents = Readonly<Record<string, ComponentType<{ section: any }>>>;
