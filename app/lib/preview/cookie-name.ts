/**
 * The preview cookies' names, shared by the site (app/lib/preview/) and the page cache, which
 * answers no request carrying either from the cache (server/cache/cache-key.ts, bypassesPageCache).
 */

/** The signed draft preview: pages show drafts (app/lib/preview/preview-cookie.server.ts). */
export const PREVIEW_COOKIE = "site_preview";

/**
 * The admin's Published tab: pages are the published ones, but answered afresh and framable by
 * the CMS admin. It grants nothing else, so it is not signed.
 */
export const PUBLISHED_VIEW_COOKIE = "site_preview_published";
