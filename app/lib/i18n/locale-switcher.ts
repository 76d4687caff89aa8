import { authPath, type AuthPage } from "../auth/paths.ts";
import { localizedPath, type LocaleConfig } from "../locale-path.ts";
import { languageName } from "./messages.ts";

/** One link of the header's locale switcher. */
export interface LocaleLink {
  locale: string;
  /** The locale's name in its own language ("Deutsch"). */
  label: string;
  href: string;
  current: boolean;
}

/** What the page on show says about its other locales. */
export type SwitcherPage =
  /** A CMS page: the locales it is published in, each with its fullPath (from the page's loader). */
  | { kind: "cms"; translations: ReadonlyArray<{ locale: string; fullPath: string }> }
  /** An auth page: the same page exists in every locale. */
  | { kind: "auth"; page: AuthPage }
  /** Anything else (a 404, an error): each locale's home page. */
  | { kind: "other" };

/**
 * Where each locale's link leads: the same page in that locale when it exists there (the CMS
 * page's published translation, or the auth page), else that locale's home page. An auth page
 * keeps its query (`search`, e.g. `?code=…` of a reset link, `?redirectTo=…`): the same page in
 * another language must still work; a CMS page's query is not carried (it is the page's own).
 */
export function localeLinks(page: SwitcherPage, current: string, config: LocaleConfig, search = ""): LocaleLink[] {
  return config.locales.map((locale) => {
    let href = localizedPath("/", locale, config);
    if (page.kind === "auth") href = `${authPath(page.page, locale, config)}${search}`;
    if (page.kind === "cms") {
      const translation = page.translations.find((candidate) => candidate.locale === locale);
      if (translation) href = localizedPath(translation.fullPath, locale, config);
    }
    return { locale, label: languageName(locale), href, current: locale === current };
  });
}
