/**
 * The headers of a personal answer (an auth page, a preview): never stored by a browser, a CDN or
 * any cache between, whatever their defaults (CDN-Cache-Control and Surrogate-Control are what some
 * CDNs read instead of Cache-Control). Pure, safe for the browser bundle.
 */
export const NO_STORE_ANYWHERE: Readonly<Record<string, string>> = {
  "cache-control": "private, no-store",
  "cdn-cache-control": "no-store",
  "surrogate-control": "no-store",
};
