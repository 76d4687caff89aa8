import { type RouteConfig, index, route } from "@react-router/dev/routes";

import { AUTH_PAGE_PATHS } from "./lib/auth/paths.ts";

export default [
  route("api/auth/*", "routes/api.auth.$.ts"),
  route("api/cms-proxy/*", "routes/api.cms-proxy.$.ts"),
  route("api/preview", "routes/api.preview.ts"),
  route("api/preview/exit", "routes/api.preview.exit.ts"),
  // The auth pages, unprefixed (the default locale) and under a locale's prefix (`/de/sign-in`):
  // app/lib/auth/paths.ts. `:lang` matches any segment; the page answers 404 for one that is
  // not a configured locale (docs/decisions/0018-locales-for-visitors.md).
  ...AUTH_PAGE_PATHS.flatMap((path) => {
    const name = path.slice(1);
    return [
      route(name, `routes/${name}.tsx`),
      route(`:lang/${name}`, `routes/${name}.tsx`, { id: `routes/${name}-localized` }),
    ];
  }),
  route("sitemap.xml", "routes/sitemap.xml.ts"),
  // The parts of a sitemap too large for one file (`/sitemap/1.xml`): routes/sitemap.$part.ts.
  route("sitemap/:part", "routes/sitemap.$part.ts"),
  route("robots.txt", "routes/robots.txt.ts"),
  // The blog (docs/cms-contract.md, "Articles"), unprefixed and under a locale's prefix; as for
  // the auth pages, `:lang` matches any segment and the loader answers 404 for one that is not a
  // locale (so a CMS page at `/<x>/blog` is not reachable: the blog owns that address).
  ...[
    ["blog", "routes/blog.tsx", "routes/blog"],
    ["blog/category/:category", "routes/blog.tsx", "routes/blog-category"],
    ["blog/rss.xml", "routes/blog.rss.ts", "routes/blog.rss"],
    ["blog/:slug", "routes/blog.$slug.tsx", "routes/blog.$slug"],
  ].flatMap(([path, file, id]) => [
    route(path!, file!, { id }),
    route(`:lang/${path}`, file!, { id: `${id}-localized` }),
  ]),
  route("uploads/*", "routes/uploads.$.ts"),
  // Every path that no other route claims is a CMS page (or a CMS redirect, or a 404),
  // in any locale. The home page needs its own entry: a splat does not match `/`.
  index("routes/cms-page.tsx", { id: "routes/cms-home" }),
  route("*", "routes/cms-page.tsx"),
] satisfies RouteConfig;
