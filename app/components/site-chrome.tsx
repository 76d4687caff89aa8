import { Link, useLocation } from "react-router";

import type { NavEntry } from "../lib/cms/links.server.ts";
import { t } from "../lib/i18n/messages.ts";
import type { LocaleConfig } from "../lib/locale-path.ts";
import { AccountLink } from "./account-link.tsx";
import { LocaleSwitcher } from "./locale-switcher.tsx";
import { SearchField } from "./search-field.tsx";
import type { SectionLink } from "./sections/types.ts";

/** A link of the header or the footer, resolved by the root's loader (app/lib/cms/links.server.ts). */
export type ChromeLink = SectionLink;

function NavLinkItem({ link }: { link: ChromeLink }) {
  // Internal links navigate client-side on a page that hydrated (app/lib/hydration.ts); external
  // ones are plain anchors.
  if (link.kind === "internal") return <Link to={link.href}>{link.label}</Link>;
  return link.kind === "external" ? (
    <a href={link.href} rel="noopener noreferrer">
      {link.label}
    </a>
  ) : (
    <a href={link.href}>{link.label}</a>
  );
}

/**
 * A navbar entry with child links: a drop-down made of <details>/<summary>, which opens and closes
 * without JavaScript, by mouse and by keyboard (the summary is a button: Enter or Space), and says
 * to assistive technology whether it is open. The entry's own page, if it has one, is the first link
 * in it, so the summary only ever toggles.
 */
function NavDropDown({ entry }: { entry: NavEntry }) {
  const own = entry.href ? [{ label: entry.label, href: entry.href, kind: entry.kind }] : [];
  return (
    <details className="nav-drop-down">
      <summary>{entry.label}</summary>
      <ul>
        {[...own, ...entry.children].map((link) => (
          <li key={`${link.href}|${link.label}`}>
            <NavLinkItem link={link} />
          </li>
        ))}
      </ul>
    </details>
  );
}

export function SiteHeader({
  entries,
  homeUrl,
  signedIn,
  locale,
  localeConfig,
}: {
  entries: NavEntry[];
  homeUrl: string;
  signedIn: boolean;
  /** The page's locale: the chrome's words are in it. */
  locale: string;
  localeConfig: LocaleConfig;
}) {
  // A client-side navigation (from a page that hydrated) renders a new checkbox, so the phone menu
  // closes as a page load closes it.
  const { pathname } = useLocation();
  return (
    <header className="site-header">
      <div className="site-header-inner">
        <a href="#main" className="skip-link">
          {t(locale, "chrome.skipLink")}
        </a>
        <Link to={homeUrl} className="site-logo">
          Acme
        </Link>
        {/* The phone menu opens without JavaScript: the checkbox and its label (styles.css) show
            and hide .site-menu below the breakpoint; from it up, both are hidden and the menu shows. */}
        <input key={pathname} type="checkbox" id="site-menu-toggle" className="menu-toggle" aria-controls="site-menu" />
        <label htmlFor="site-menu-toggle" className="menu-button">
          <span className="menu-icon" aria-hidden="true" />
          {t(locale, "chrome.menu")}
        </label>
        <div className="site-menu" id="site-menu">
          <MainNav entries={entries} label={t(locale, "chrome.mainNav")} />
          <LocaleSwitcher locale={locale} config={localeConfig} />
          <div className="site-account">
            <AccountLink signedIn={signedIn} locale={locale} localeConfig={localeConfig} />
          </div>
          <SearchField locale={locale} localeConfig={localeConfig} />
        </div>
      </div>
    </header>
  );
}

/** The navbar's entries: links, and drop-downs of child links (one level); nothing when there are none. */
function MainNav({ entries, label }: { entries: NavEntry[]; label: string }) {
  if (entries.length === 0) return null;
  return (
    <nav aria-label={label} className="main-nav">
      <ul>
        {entries.map((entry) => (
          <li key={`${entry.href}|${entry.label}`}>
            {entry.children.length > 0 ? (
              <NavDropDown entry={entry} />
            ) : (
              entry.href && <NavLinkItem link={{ label: entry.label, href: entry.href, kind: entry.kind }} />
            )}
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The CMS's links of the footer as a labelled list; nothing when there are none. */
function NavList({ links, label }: { links: ChromeLink[]; label: string }) {
  if (links.length === 0) return null;
  return (
    <nav aria-label={label}>
      <ul>
        {links.map((link) => (
          <li key={`${link.href}|${link.label}`}>
            <NavLinkItem link={link} />
          </li>
        ))}
      </ul>
    </nav>
  );
}

export function SiteFooter({ links, note, locale }: { links: ChromeLink[]; note?: string | null; locale: string }) {
  return (
    <footer className="site-footer">
      <div className="site-footer-inner">
        <NavList links={links} label={t(locale, "chrome.footerNav")} />
        {note && <p>{note}</p>}
      </div>
    </footer>
  );
}
