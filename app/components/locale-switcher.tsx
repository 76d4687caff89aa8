import { Link, useLocation, useMatches } from "react-router";

import type { AuthPage } from "../lib/auth/paths.ts";
import { localeLinks, type SwitcherPage } from "../lib/i18n/locale-switcher.ts";
import { t } from "../lib/i18n/messages.ts";
import type { LocaleConfig } from "../lib/locale-path.ts";

/** What an auth page's route module exports as its `handle`, so the switcher knows the page. */
export interface AuthPageHandle {
  authPage: AuthPage;
}

/** The data a CMS page's loader hands the switcher: the locales the page is published in. */
export interface SwitcherData {
  translations: ReadonlyArray<{ locale: string; fullPath: string }>;
}

/**
 * Which page is on show, from the matched routes: an auth page says so in its `handle`; a CMS
 * page's loader data carries its translations (the same CMS answer as its hreflang links,
 * tagged with the page's document, so a cached page's switcher is revalidated with it).
 */
function useSwitcherPage(): SwitcherPage {
  const matches = useMatches();
  for (const match of [...matches].reverse()) {
    const handle = match.handle as Partial<AuthPageHandle> | undefined;
    if (handle?.authPage) return { kind: "auth", page: handle.authPage };
    const data = match.loaderData as Partial<SwitcherData> | null | undefined;
    if (data && Array.isArray(data.translations)) return { kind: "cms", translations: data.translations };
  }
  return { kind: "other" };
}

/**
 * The header's locale switcher: plain links (they work with JavaScript off), each in its own
 * language (`lang`, `hreflang`), the current locale marked with `aria-current`.
 */
export function LocaleSwitcher({ locale, config }: { locale: string; config: LocaleConfig }) {
  const page = useSwitcherPage();
  const { search } = useLocation();
  if (config.locales.length < 2) return null;
  return (
    <nav aria-label={t(locale, "chrome.localeSwitcher")} className="locale-switcher">
      <ul>
        {localeLinks(page, locale, config, search).map((link) => (
          <li key={link.locale}>
            <Link
              to={link.href}
              lang={link.locale}
              hrefLang={link.locale}
              aria-current={link.current ? "true" : undefined}
            >
              {link.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
