/**
 * URL path <-> (locale, CMS fullPath). The default locale is served both with and
 * without its prefix (`/careers` and `/en/careers`); other locales always carry theirs
 * (`/de/careers`). A page's `fullPath` in the CMS never carries a locale.
 */

export interface LocaleConfig {
  locales: readonly string[];
  defaultLocale: string;
}

export interface LocalePath {
  locale: string;
  /** The CMS fullPath: `/` for the home page, otherwise `/a/b` with no trailing slash. */
  fullPath: string;
  /** Whether the URL carried the locale as its first segment. */
  prefixed: boolean;
}

/**
 * Splits a URL pathname (as in `new URL(...).pathname`, percent-encoded) into locale
 * and fullPath. Returns null for a path no page can have: a segment that does not
 * decode, or that decodes to something containing a slash, a backslash or a dot segment.
 */
export function parseLocalePath(pathname: string, config: LocaleConfig): LocalePath | null {
  const segments: string[] = [];
  for (const raw of pathname.split("/")) {
    if (raw === "") continue;
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return null;
    }
    if (segment === "." || segment === ".." || /[/\\\u0000]/.test(segment)) return null;
    segments.push(segment);
  }
  const [first, ...rest] = segments;
  if (first !== undefined && config.locales.includes(first)) {
    return { locale: first, fullPath: toFullPath(rest), prefixed: true };
  }
  return { locale: config.defaultLocale, fullPath: toFullPath(segments), prefixed: false };
}

function toFullPath(segments: string[]): string {
  return `/${segments.join("/")}`;
}

/** The canonical URL path of a page: unprefixed for the default locale. */
export function localizedPath(fullPath: string, locale: string, config: LocaleConfig): string {
  if (locale === config.defaultLocale) return fullPath;
  return localePrefixedPath(fullPath, locale);
}

/** The path with its locale always in front (`/en/careers`, `/en` for home): the form redirect sources use. */
export function localePrefixedPath(fullPath: string, locale: string): string {
  return fullPath === "/" ? `/${locale}` : `/${locale}${fullPath}`;
}

/**
 * The paths to revalidate for one path the CMS sent (docs/cms-contract.md, "Front-end revalidation
 * endpoint"): a default-locale page is cached under both its URLs, so `/careers` becomes
 * `/en/careers` and `/careers`, `/` becomes `/en` and `/`, `/jobs/*` becomes `/en/jobs/*` and
 * `/jobs/*`. `/*` already covers everything. A path that starts with a locale is not prefixed
 * again; when that locale is the default one (redirect sources come this way: `/en/old`), its
 * unprefixed twin is revalidated too, since the site answers it the same.
 */
export function withDefaultLocaleVariants(path: string, config: LocaleConfig): string[] {
  if (path === "/*") return [path];
  const first = path.split("/")[1] ?? "";
  if (first === config.defaultLocale) {
    const unprefixed = path.slice(first.length + 1) || "/";
    return [path, unprefixed];
  }
  if (config.locales.includes(first)) return [path];
  const prefixed = path === "/" ? `/${config.defaultLocale}` : `/${config.defaultLocale}${path}`;
  return [prefixed, path];
}
