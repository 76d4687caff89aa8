import * as z from "zod";

import type { SectionLink } from "../../components/sections/types.ts";
import { blogPath } from "../blog/paths.ts";
import { localePrefixedPath, localizedPath, type LocaleConfig } from "../locale-path.ts";
import type { Log } from "../log.ts";
import { sameSitePath } from "../redirect-target.ts";

/**
 * A CMS link (`shared.link`, a navbar entry's `shared.nav-link`): a label and where it goes, a page
 * or an article by reference (a relation: it follows the target when it moves) or a typed URL
 * (external links). docs/links.md; decision 0041.
 */

/** What a link's references are populated with: the fields of the target's path, and its locale. */
export const LINK_POPULATE = {
  populate: { page: { fields: ["fullPath", "locale"] }, article: { fields: ["slug", "locale"] } },
} as const;

const pageTarget = z.object({ fullPath: z.string().min(1), locale: z.string() });
const articleTarget = z.object({ slug: z.string().min(1), locale: z.string() });

export const cmsLinkSchema = z.object({
  label: z.string(),
  url: z.string().nullish(),
  // A target that is gone, unpublished or not in the holder's locale comes back null.
  page: pageTarget.nullish(),
  article: articleTarget.nullish(),
});
export type CmsLink = z.infer<typeof cmsLinkSchema>;

/**
 * Where a link goes, as the site renders it, or null (nothing to link to: leave it out).
 * A reference renders its target's current path in the target's locale: Strapi links the version
 * of the holder's locale (a German navbar's link to a page is to its German version), so that is the
 * visitor's; an editor who picked another locale's version gets that one, at its own address. A
 * reference whose target is gone (deleted, unpublished, its locale version removed) is null: the
 * link is left out rather than pointing at a 404, unless the link also has a typed URL, which then
 * stands in. A typed URL alone goes through resolveSectionLink's checks (no `javascript:`, `//host`).
 */
export function resolveCmsLink(
  link: CmsLink,
  locale: string,
  config: LocaleConfig,
  log: Pick<Log, "warn">,
): SectionLink | null {
  const label = link.label;
  // The target's path, canonicalised like a typed one: a slug the CMS let through (`..`) stays a path here.
  const internal = (path: string) => {
    const href = sameSitePath(path);
    return href === null ? null : { label, href, kind: "internal" as const };
  };
  if (link.page) return internal(localizedPath(link.page.fullPath, link.page.locale, config));
  if (link.article) return internal(localizedPath(blogPath({ slug: link.article.slug }), link.article.locale, config));
  const url = link.url?.trim();
  return url ? resolveSectionLink({ label, url }, locale, config, log) : null;
}

/** The links that resolve, in order. */
export function resolveCmsLinks(
  links: readonly CmsLink[],
  locale: string,
  config: LocaleConfig,
  log: Pick<Log, "warn">,
): SectionLink[] {
  return links.map((link) => resolveCmsLink(link, locale, config, log)).filter((link) => link !== null);
}

/**
 * A CMS link as the site renders it, or null when it is no safe address (logged to `log`: `javascript:`,
 * `//host`, a relative path). A path on this site is canonicalised (app/lib/redirect-target.ts) and,
 * unless it starts with a locale already, given the page's locale prefix when that is not the
 * default locale (`/company` on a German page is `/de/company`); http(s) URLs are external;
 * `mailto:`, `tel:` and `#fragment` are kept as they are.
 */
export function resolveSectionLink(
  link: { label: string; url: string },
  locale: string,
  config: LocaleConfig,
  log: Pick<Log, "warn">,
): SectionLink | null {
  const url = link.url.trim();
  const label = link.label;
  if (/^[/\\]/.test(url)) {
    const path = sameSitePath(url);
    if (path === null) return refused(link.url, log);
    const first = path.split(/[/?#]/)[1] ?? "";
    const prefixed =
      config.locales.includes(first) || locale === config.defaultLocale ? path : localizedInternal(path, locale);
    return { label, href: prefixed, kind: "internal" };
  }
  if (/^#[^\s]*$/.test(url)) return { label, href: url, kind: "plain" };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return refused(link.url, log);
  }
  if (parsed.protocol === "http:" || parsed.protocol === "https:")
    return { label, href: parsed.href, kind: "external" };
  if (parsed.protocol === "mailto:" || parsed.protocol === "tel:") return { label, href: url, kind: "plain" };
  return refused(link.url, log);
}

/** `/company?x#y` on a `de` page → `/de/company?x#y`; `/` → `/de`. */
function localizedInternal(path: string, locale: string): string {
  const at = path.search(/[?#]/);
  const pathname = at === -1 ? path : path.slice(0, at);
  return `${localePrefixedPath(pathname, locale)}${at === -1 ? "" : path.slice(at)}`;
}

function refused(url: string, log: Pick<Log, "warn">): null {
  log.warn(`[cms] a section link was left out: ${JSON.stringify(url.slice(0, 200))} is not a safe address`);
  return null;
}

/** A navbar entry (`shared.nav-link`): a link, its child links (one level: a drop-down), or both. */
export const navEntrySchema = cmsLinkSchema.extend({
  children: z
    .array(cmsLinkSchema)
    .nullish()
    .transform((children) => children ?? []),
});
export type CmsNavEntry = z.infer<typeof navEntrySchema>;

/** A navbar entry as the chrome renders it (app/components/site-chrome.tsx). */
export interface NavEntry {
  label: string;
  /** Null: a drop-down with no page of its own. */
  href: string | null;
  kind: SectionLink["kind"];
  children: SectionLink[];
}

/** The navbar's entries that lead somewhere: an entry whose target and children are all gone is left out. */
export function resolveNavEntries(
  entries: readonly CmsNavEntry[],
  locale: string,
  config: LocaleConfig,
  log: Pick<Log, "warn">,
): NavEntry[] {
  const resolved: NavEntry[] = [];
  for (const entry of entries) {
    const own = resolveCmsLink(entry, locale, config, log);
    const children = resolveCmsLinks(entry.children, locale, config, log);
    if (!own && children.length === 0) continue;
    resolved.push({ label: entry.label, href: own?.href ?? null, kind: own?.kind ?? "internal", children });
  }
  return resolved;
}
