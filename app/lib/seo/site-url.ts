import { canonicalPath } from "../canonical-url.ts";
import { localePrefixedPath, localizedPath, parseLocalePath, type LocaleConfig } from "../locale-path.ts";

/**
 * Absolute URLs the site gives out about itself (canonical, hreflang, sitemap). Pure: the caller
 * passes APP_PUBLIC_URL's origin. CMS media URLs: app/lib/cms/media.ts.
 */

/**
 * The absolute canonical URL of a page (`https://www.example.com/de/careers`): its localized
 * path, percent-encoded as the site spells it. A default-locale page whose path starts with a
 * locale code (`/de`) can only be reached with its prefix (`/en/de`). Null when no URL of the
 * site leads back to the page: a locale the site does not serve, or a fullPath that would not
 * survive the round trip (dot segments, a slash inside a segment).
 */
export function canonicalPageUrl(
  origin: string,
  fullPath: string,
  locale: string,
  config: LocaleConfig,
): string | null {
  if (!config.locales.includes(locale)) return null;
  for (const path of [localizedPath(fullPath, locale, config), localePrefixedPath(fullPath, locale)]) {
    const canonical = canonicalPath(path);
    if (!canonical.ok) continue;
    const back = parseLocalePath(canonical.path, config);
    if (back && back.locale === locale && back.fullPath === fullPath) return `${origin}${canonical.path}`;
  }
  return null;
}
