import { type RouteConfig, index, route } from "@react-router/dev/routes";

import { AUTH_PAGE_PATHS } from "./lib/auth/paths.ts";

/**
 * A route unprefixed (the default locale) and under a locale's prefix (`/de/blog`). As for the auth
 * pages, `:lang` matches any segment and the loader answers 404 for one that is not a locale
 * (app/lib/content-route.server.ts, pathLocale), so a CMS page at `/<x>/blog` is not reachable:
 * the route owns that address.
 */
function localized(path: string, file: string, id: string) {
  return [route(path, file, { id }), route(`:lang/${path}`, file, { id: `${id}-localized` })];
}

export default [
  route("api/auth/*", "routes/api.auth.$.ts"),
  route("api/cms-proxy/*", "routes/api.cms-proxy.$.ts"),
  route("api/preview", "routes/api.preview.ts"),
  route("api/preview/exit", "routes/api.preview.exit.ts"),
  route("api/preview/version", "routes/api.preview.version.ts"),
  // The auth pages (app/lib/auth/paths.ts; docs/decisions/0018-locales-for-visitors.md).
  ...AUTH_PAGE_PATHS.flatMap((path) => localized(path.slice(1), `routes${path}.tsx`, `routes${path}`)),
  route("sitemap.xml", "routes/sitemap.xml.ts"),
  // The parts of a sitemap too large for one file (`/sitemap/1.xml`): routes/sitemap.$part.ts.
  route("sitemap/:part", "routes/sitemap.$part.ts"),
  route("robots.txt", "routes/robots.txt.ts"),
  // The blog (docs/cms-contract.md, "Articles").
  ...localized("blog", "routes/blog.tsx", "routes/blog"),
  ...localized("blog/category/:category", "routes/blog.tsx", "routes/blog-category"),
  ...localized("blog/rss.xml", "routes/blog.rss.ts", "routes/blog.rss"),
  ...localized("blog/:slug", "routes/blog.$slug.tsx", "routes/blog.$slug"),
  // The site's search (docs/search.md): never in the page cache (server/app.ts isCacheablePath).
  ...localized("search", "routes/search.tsx", "routes/search"),
  // Your content types' routes go here, before the CMS pages' catch-all (docs/add-a-content-type.md).
  route("uploads/*", "routes/uploads.$.ts"),
  // Every path that no other route claims is a CMS page (or a CMS redirect, or a 404),
  // in any locale. The home page needs its own entry: a splat does not match `/`.
  index("routes/cms-page.tsx", { id: "routes/cms-home" }),
  route("*", "routes/cms-page.tsx"),
] satisfies RouteConfig;
