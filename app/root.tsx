import { isRouteErrorResponse, Links, Meta, Outlet, useRouteLoaderData } from "react-router";

import type { Route } from "./+types/root";
import { PageScripts, PageStylesheet } from "./components/page-assets.tsx";
import { SiteFooter, SiteHeader } from "./components/site-chrome.tsx";
import { errorPageText, errorPayloadText } from "./lib/cms/error-page.ts";
import { usePageHydrates } from "./lib/hydration.ts";
import { findFooter, findNavbar, type Footer, type Navbar } from "./lib/cms/content.server.ts";
import { resolveCmsLinks, resolveNavEntries } from "./lib/cms/links.server.ts";
import { CmsError } from "./lib/cms/errors.server.ts";
import { localizedPath, parseLocalePath } from "./lib/locale-path.ts";
import { localeConfigOf } from "./lib/locales.server.ts";
import { cmsContext, configContext, logContext, markDynamic, visitorContext } from "./lib/request-context.server.ts";

// The stylesheet is not here: content pages carry it inline (app/components/page-assets.tsx).
export const links: Route.LinksFunction = () => [
  // From public/ (copied into build/client). The .ico is for browsers without SVG icons; its
  // `sizes` keeps Chromium from preferring it to the SVG.
  { rel: "icon", href: "/favicon.ico", sizes: "32x32" },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export async function loader({ context, url }: Route.LoaderArgs) {
  const config = localeConfigOf(context.get(configContext));
  // `url`, not `request.url`: React Router 8 hands loaders the raw request (`/de.data` for the
  // German home page's client navigation); `url` is the page's own address.
  const locale = parseLocalePath(url.pathname, config)?.locale ?? config.defaultLocale;
  const cms = context.get(cmsContext);
  const log = context.get(logContext);
  let navbar: Navbar | null = null;
  let footer: Footer | null = null;
  try {
    [navbar, footer] = await Promise.all([findNavbar(cms, locale), findFooter(cms, locale)]);
  } catch (error) {
    if (!(error instanceof CmsError)) throw error;
    // The page itself may not need the CMS (account, sign-in): show it without the CMS's
    // navbar and footer rather than fail it, and never cache a page rendered this way.
    log.error(`[cms] navbar/footer unavailable: ${error.message}`);
    markDynamic(context);
  }
  return {
    locale,
    // Whether a session cookie came (one cache variant each), never who it belongs to.
    signedIn: context.get(visitorContext).signedIn,
    homeUrl: localizedPath("/", locale, config),
    // For the locale switcher and the auth links (app/components/locale-switcher.tsx).
    localeConfig: config,
    navbar: resolveNavEntries(navbar?.links ?? [], locale, config, log),
    footer: { links: resolveCmsLinks(footer?.links ?? [], locale, config, log), note: footer?.note ?? null },
  };
}

export function Layout({ children }: { children: React.ReactNode }) {
  const chrome = useRouteLoaderData<typeof loader>("root");
  // Without the root's data (it failed): the default locale only, no switcher.
  const locale = chrome?.locale ?? "en";
  // Content pages are HTML and CSS only; the auth pages hydrate (app/lib/hydration.ts).
  const hydrates = usePageHydrates();
  return (
    <html lang={locale}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <PageStylesheet hydrates={hydrates} />
        <Links />
      </head>
      <body>
        <SiteHeader
          entries={chrome?.navbar ?? []}
          homeUrl={chrome?.homeUrl ?? "/"}
          signedIn={chrome?.signedIn ?? false}
          locale={locale}
          localeConfig={chrome?.localeConfig ?? { locales: [locale], defaultLocale: locale }}
        />
        <main id="main">{children}</main>
        <SiteFooter links={chrome?.footer.links ?? []} note={chrome?.footer.note} locale={locale} />
        <PageScripts hydrates={hydrates} />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  // The root's loader data, when it ran (an error below it); the built-in words of its locale,
  // or the words a loader gave (the CMS's Error page: app/lib/cms/error-page.server.ts).
  const locale = useRouteLoaderData<typeof loader>("root")?.locale ?? "en";
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  let { title, message } = errorPageText(notFound ? "not-found" : "error", null, locale);
  if (isRouteErrorResponse(error)) {
    if (!notFound && error.status !== 500) title = `Error ${error.status}`;
    ({ title = title, message = message } = errorPayloadText(error.data));
  } else if (import.meta.env.DEV && error instanceof Error) {
    message = error.message;
  }
  return (
    <section className="error-page">
      <title>{title}</title>
      <h1>{title}</h1>
      <p>{message}</p>
    </section>
  );
}
