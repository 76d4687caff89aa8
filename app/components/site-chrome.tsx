import { Link, useLocation } from "react-router";

import { t } from "../lib/i18n/messages.ts";
import type { LocaleConfig } from "../lib/locale-path.ts";
import { AccountLink } from "./account-link.tsx";
import { LocaleSwitcher } from "./locale-switcher.tsx";
import { SearchField } from "./search-field.tsx";

export interface ChromeLink {
  label: string;
  url: string;
}

function NavLinkItem({ link }: { link: ChromeLink }) {
  // Internal links navigate client-side on a page that hydrated (app/lib/hydration.ts); external
  // ones are plain anchors.
  return link.url.startsWith("/") && !link.url.startsWith("//") ? (
    <Link to={link.url}>{link.label}</Link>
  ) : (
    <a href={link.url} rel="noopener noreferrer">
      {link.label}
    </a>
  );
}

export function SiteHeader({
  links,
  homeUrl,
  signedIn,
  locale,
  localeConfig,
}: {
  links: ChromeLink[];
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
          <NavList links={links} label={t(locale, "chrome.mainNav")} className="main-nav" />
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

/** The CMS's links of the header or the footer as a labelled list; nothing when there are none. */
function NavList({ links, label, className }: { links: ChromeLink[]; label: string; className?: string }) {
  if (links.length === 0) return null;
  return (
    <nav aria-label={label} className={className}>
      <ul>
        {links.map((link) => (
          <li key={`${link.url}|${link.label}`}>
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
