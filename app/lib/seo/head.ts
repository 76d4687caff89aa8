import type { MetaDescriptor } from "react-router";

import { absoluteMediaUrl, type MediaBase } from "../cms/media.ts";
import type { LocaleConfig } from "../locale-path.ts";
import { canonicalPageUrl } from "./site-url.ts";

/**
 * A CMS page's head: title, description, canonical URL, hreflang alternates, Open Graph and
 * Twitter tags. pageHead() runs in the loader (it needs APP_PUBLIC_URL and CMS_MEDIA_URL); headMeta()
 * turns its result into the route's `meta` descriptors, on the server and in the browser alike.
 */

export const SITE_NAME = "Acme";

export interface HeadImage {
  url: string;
  alt: string | null;
  width: number | null;
  height: number | null;
  type: string | null;
}

export interface PageHead {
  title: string;
  description: string | null;
  /** Absolute; null only for a page no site URL leads back to (see canonicalPageUrl). */
  canonical: string | null;
  locale: string;
  /**
   * One per published locale the site serves, then `x-default` (the default locale's page, when
   * it has one). Empty when the page exists in one locale only: there is nothing to point to.
   */
  alternates: Array<{ hrefLang: string; href: string }>;
  image: HeadImage | null;
}

export interface PageHeadInput {
  page: {
    title: string;
    fullPath: string;
    locale: string;
    seo: {
      metaTitle?: string | null;
      metaDescription?: string | null;
      shareImage?: {
        url: string;
        alternativeText?: string | null;
        width?: number | null;
        height?: number | null;
        mime?: string | null;
      } | null;
    } | null;
  };
  /** The published locales of the page's document (findPageLocales), its own included or not. */
  translations: ReadonlyArray<{ locale: string; fullPath: string }>;
  /** APP_PUBLIC_URL's origin. */
  origin: string;
  /** CMS_MEDIA_URL, or null: relative media URLs are then the site's own (app/lib/cms/media.ts). */
  mediaBase: MediaBase;
  config: LocaleConfig;
}

export function pageHead({ page, translations, origin, mediaBase, config }: PageHeadInput): PageHead {
  const seo = page.seo;
  const byLocale = new Map(translations.map((translation) => [translation.locale, translation.fullPath]));
  byLocale.set(page.locale, page.fullPath);
  const localized = config.locales.flatMap((locale) => {
    const fullPath = byLocale.get(locale);
    const href = fullPath === undefined ? null : canonicalPageUrl(origin, fullPath, locale, config);
    return href ? [{ hrefLang: locale, href }] : [];
  });
  const fallback = localized.find((alternate) => alternate.hrefLang === config.defaultLocale);
  const alternates =
    localized.length < 2 ? [] : [...localized, ...(fallback ? [{ hrefLang: "x-default", href: fallback.href }] : [])];

  const image = seo?.shareImage;
  const imageUrl = image ? absoluteMediaUrl(image.url, mediaBase, origin) : null;
  return {
    title: seo?.metaTitle || `${page.title} | ${SITE_NAME}`,
    description: seo?.metaDescription || null,
    canonical: canonicalPageUrl(origin, page.fullPath, page.locale, config),
    locale: page.locale,
    alternates,
    image:
      image && imageUrl
        ? {
            url: imageUrl,
            alt: image.alternativeText || null,
            width: image.width ?? null,
            height: image.height ?? null,
            type: image.mime ?? null,
          }
        : null,
  };
}

/** `en-US` → `en_US`, the form Open Graph uses. */
export const openGraphLocale = (locale: string) => locale.replace("-", "_");

export function headMeta(head: PageHead): MetaDescriptor[] {
  const tags: MetaDescriptor[] = [{ title: head.title }];
  const property = (name: string, content: string | number | null) =>
    content === null ? [] : [{ property: name, content: String(content) }];
  const named = (name: string, content: string | null) => (content === null ? [] : [{ name, content }]);

  tags.push(...named("description", head.description));
  if (head.canonical) tags.push({ tagName: "link", rel: "canonical", href: head.canonical });
  for (const alternate of head.alternates) {
    tags.push({ tagName: "link", rel: "alternate", hrefLang: alternate.hrefLang, href: alternate.href });
  }

  tags.push(
    ...property("og:type", "website"),
    ...property("og:site_name", SITE_NAME),
    ...property("og:title", head.title),
    ...property("og:description", head.description),
    ...property("og:url", head.canonical),
    ...property("og:locale", openGraphLocale(head.locale)),
  );
  for (const alternate of head.alternates) {
    if (alternate.hrefLang === "x-default" || alternate.hrefLang === head.locale) continue;
    tags.push(...property("og:locale:alternate", openGraphLocale(alternate.hrefLang)));
  }
  const image = head.image;
  if (image) {
    tags.push(
      ...property("og:image", image.url),
      ...property("og:image:type", image.type),
      ...property("og:image:width", image.width),
      ...property("og:image:height", image.height),
      ...property("og:image:alt", image.alt),
    );
  }

  tags.push(
    ...named("twitter:card", image ? "summary_large_image" : "summary"),
    ...named("twitter:title", head.title),
    ...named("twitter:description", head.description),
    ...named("twitter:image", image?.url ?? null),
    ...named("twitter:image:alt", image?.alt ?? null),
  );
  return tags;
}
