import { type RouteConfig, type RouteConfigEntry, index, route } from "@react-router/dev/routes";

import { localized } from "./content-types/localized-routes.ts";
import { checkRegisteredFolders, registered } from "./content-types/pick.ts";
import { AUTH_PAGE_PATHS } from "./lib/auth/paths.ts";

/**
 * The registered content types' routes (app/content-types/index.ts: each type's routes.ts), before
 * the CMS pages' catch-all. Found by Vite, as the type's other parts are (app/content-types/pick.ts).
 */
checkRegisteredFolders(Object.keys(import.meta.glob("./content-types/*/*.{ts,tsx}")), "./content-types");
const contentTypeRoutes = registered(
  import.meta.glob<RouteConfigEntry[]>("./content-types/*/routes.ts", { eager: true, import: "default" }),
  "routes.ts",
  "./content-types",
).flat();

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
  // The site's search (docs/search.md): never in the page cache (server/app.ts isCacheablePath).
  ...localized("search", "routes/search.tsx", "routes/search"),
  // The content types' (the blog's, yours: docs/add-a-content-type.md), before the CMS pages' catch-all.
  ...contentTypeRoutes,
  route("uploads/*", "routes/uploads.$.ts"),
  // Every path that no other route claims is a CMS page (or a CMS redirect, or a 404),
  // in any locale. The home page needs its own entry: a splat does not match `/`.
  index("routes/cms-page.tsx", { id: "routes/cms-home" }),
  route("*", "routes/cms-page.tsx"),
] satisfies RouteConfig;
