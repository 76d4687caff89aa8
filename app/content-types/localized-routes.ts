import { route } from "@react-router/dev/routes";

/**
 * A route unprefixed (the default locale) and under a locale's prefix (`/de/blog`). As for the auth
 * pages, `:lang` matches any segment and the loader answers 404 for one that is not a locale
 * (app/lib/content-route.server.ts, pathLocale), so a CMS page at `/<x>/blog` is not reachable:
 * the route owns that address. `file` is relative to app/ (`content-types/jobs/jobs.tsx`).
 */
export function localized(path: string, file: string, id: string) {
  return [route(path, file, { id }), route(`:lang/${path}`, file, { id: `${id}-localized` })];
}
