import { AUTH_PAGE_PATHS } from "./auth/paths.ts";

/**
 * The speculation rules of a page that does not hydrate (docs/decisions/0035-no-javascript-on-content-pages.md):
 * without a client router, the browser itself loads the next page ahead. A same-site link the
 * visitor hovers (about 200 ms) or starts to press is prerendered, so the click shows a page
 * that is already there; the page cache answers that request (a HIT), so it costs the site next
 * to nothing. Browsers without speculation rules ignore the script and load the page on click.
 *
 * Never ahead: the auth pages of app/lib/auth/paths.ts in every locale (they set cookies, issue form
 * tokens, count towards rate limits; sign-out among them), anything with a query string (it may
 * change state), the APIs, the CMS's files and other files (a dot in the path: the feed, the sitemaps; the page
 * cache's isCacheablePath in server/app.ts takes no such path either), and the page's own fragments.
 */
export const SPECULATION_RULES = {
  prerender: [
    {
      where: {
        and: [
          { href_matches: "/*" },
          { not: { href_matches: excludedPaths() } },
          { not: { selector_matches: "[href*='?'], [href^='#']" } },
        ],
      },
      eagerness: "moderate",
    },
  ],
} as const;

/** URL patterns (relative to the page) that no rule may load ahead. */
function excludedPaths(): string[] {
  // `/de/sign-in` as well as `/sign-in`: `*` stands for a locale's prefix (or any first segment,
  // which the auth pages' routes also claim: app/routes.ts).
  const auth = AUTH_PAGE_PATHS.flatMap((path) => [path, `/*${path}`]);
  return [...auth, "/api/*", "/uploads/*", "/assets/*", "/sitemap*", "/*.*"];
}

/** As it goes into `<script type="speculationrules">`: JSON, with `<` escaped so it cannot end the element. */
export const SPECULATION_RULES_JSON = JSON.stringify(SPECULATION_RULES).replaceAll("<", "\\u003c");
