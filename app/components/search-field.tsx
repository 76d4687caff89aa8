import { t } from "../lib/i18n/messages.ts";
import type { LocaleConfig } from "../lib/locale-path.ts";
import { SEARCH_LIMITS, searchPath } from "../lib/search/paths.ts";

/**
 * The header's search field (docs/search.md): a plain GET form to the search page of the page's
 * locale, so it works without JavaScript. A landmark (role="search") with a label for the field,
 * hidden from sight only: the button says what the field is for.
 */
export function SearchField({ locale, localeConfig }: { locale: string; localeConfig: LocaleConfig }) {
  return (
    <form role="search" method="get" action={searchPath(locale, localeConfig)} className="site-search">
      <label htmlFor="site-search-q" className="visually-hidden">
        {t(locale, "chrome.searchLabel")}
      </label>
      <input id="site-search-q" type="search" name="q" maxLength={SEARCH_LIMITS.maxQueryLength} autoComplete="off" />
      <button type="submit">{t(locale, "chrome.search")}</button>
    </form>
  );
}
