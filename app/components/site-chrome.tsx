import { Link } from "react-router";

import { AccountLink } from "./account-link.tsx";

export interface ChromeLink {
  label: string;
  url: string;
}

function NavLinkItem({ link }: { link: ChromeLink }) {
  // Internal links navigate client-side when JavaScript is on; external ones are plain anchors.
  return link.url.startsWith("/") && !link.url.startsWith("//") ? (
    <Link to={link.url}>{link.label}</Link>
  ) : (
    <a href={link.url} rel="noopener noreferrer">
      {link.label}
    </a>
  );
}

export function SiteHeader({ links, homeUrl, signedIn }: { links: ChromeLink[]; homeUrl: string; signedIn: boolean }) {
  return (
    <header className="site-header">
      <Link to={homeUrl} className="site-logo">
        Acme
      </Link>
      {links.length > 0 && (
        <nav aria-label="Main">
          <ul>
            {links.map((link) => (
              <li key={`${link.url}|${link.label}`}>
                <NavLinkItem link={link} />
              </li>
            ))}
          </ul>
        </nav>
      )}
      <div className="site-account">
        <AccountLink signedIn={signedIn} />
      </div>
    </header>
  );
}

export function SiteFooter({ links, note }: { links: ChromeLink[]; note?: string | null }) {
  return (
    <footer className="site-footer">
      {links.length > 0 && (
        <nav aria-label="Footer">
          <ul>
            {links.map((link) => (
              <li key={`${link.url}|${link.label}`}>
                <NavLinkItem link={link} />
              </li>
            ))}
          </ul>
        </nav>
      )}
      {note && <p>{note}</p>}
    </footer>
  );
}
