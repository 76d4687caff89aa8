/**
 * The preview cookie's name, shared by the site (app/lib/preview/) and the page cache, which
 * answers no request carrying it from the cache (server/cache/cache-key.ts, bypassesPageCache).
 */
export const PREVIEW_COOKIE = "site_preview";
