import { Link, Links, Meta, Outlet, Scripts, ScrollRestoration, useRouteLoaderData } from "react-router";

import { cmsJson, type Link as NavLink } from "./cms.server.ts";

export async function loader() {
  const [navbar, footer] = await Promise.all([
    cmsJson<{ data: { links: NavLink[] } }>("/api/navbar", { locale: "en" }),
    cmsJson<{ data: { links: NavLink[]; note: string | null } }>("/api/footer", { locale: "en" }),
  ]);
  return { navbar: navbar.data.links, footer: footer.data };
}

export function Layout({ children }: { children: React.ReactNode }) {
  const chrome = useRouteLoaderData<typeof loader>("root");
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body>
        <header className="site-header">
          <a href="#main" className="skip-link">
            Skip to content
          </a>
          <Link to="/" className="site-logo">
            Acme
          </Link>
          <nav aria-label="Main">
            <ul>
              {chrome?.navbar.map((link) => (
                <li key={link.url}>
                  <Link to={link.url}>{link.label}</Link>
                </li>
              ))}
            </ul>
          </nav>
        </header>
        <main id="main">{children}</main>
        <footer className="site-footer">
          <ul>
            {chrome?.footer.links.map((link) => (
              <li key={link.url}>
                <Link to={link.url}>{link.label}</Link>
              </li>
            ))}
          </ul>
          {chrome?.footer.note && <p>{chrome.footer.note}</p>}
        </footer>
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}
