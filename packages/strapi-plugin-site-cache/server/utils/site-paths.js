"use strict";

/**
 * Page paths, shared by the revalidation and the page hierarchy (which must not import each
 * other): how the site serves a page's path, and how redirect sources spell it.
 */

/**
 * A page path as the site serves it: default locale unprefixed ('/careers'), other locales
 * prefixed ('/de/careers'; the home page '/de').
 */
function sitePath(fullPath, locale, defaultLocale) {
  const path = normalise(fullPath);
  if (!locale || locale === defaultLocale) return path;
  return path === "/" ? `/${locale}` : `/${locale}${path}`;
}

/** Always locale-prefixed ('/en/careers', '/en' for the home page): the form of redirect sources. */
function prefixedPath(fullPath, locale) {
  const path = normalise(fullPath);
  return path === "/" ? `/${locale}` : `/${locale}${path}`;
}

function normalise(path) {
  const inner = String(path ?? "")
    .trim()
    .replace(/\/{2,}/g, "/")
    .replace(/^\/+|\/+$/g, "");
  return inner ? `/${inner}` : "/";
}

module.exports = { sitePath, prefixedPath, normalise };
