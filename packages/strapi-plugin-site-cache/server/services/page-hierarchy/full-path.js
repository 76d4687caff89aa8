"use strict";

/**
 * A page's URL path in the site, without locale: its parent's fullPath plus its slug.
 *
 * - no parent, empty slug → '/' (the home page)
 * - no parent → '/' + slug
 * - parent → parent.fullPath + '/' + slug; a page with a parent needs a slug (else it would
 *   share its parent's path): that case answers null.
 *
 * Slashes are normalised: surrounding slashes and whitespace of the slug are dropped, runs of
 * slashes collapse to one, and the result never ends with '/' (except the home page '/').
 * Pure function, unit-tested in full-path.test.js.
 */
function computeFullPath(parentFullPath, slug) {
  const segment = normaliseSlug(slug);
  if (parentFullPath === null || parentFullPath === undefined) return segment ? `/${segment}` : "/";
  if (!segment) return null;
  const base = normalisePath(parentFullPath);
  return base === "/" ? `/${segment}` : `${base}/${segment}`;
}

function normaliseSlug(slug) {
  return String(slug ?? "")
    .trim()
    .replace(/\/{2,}/g, "/")
    .replace(/^\/+|\/+$/g, "");
}

function normalisePath(fullPath) {
  const inner = normaliseSlug(fullPath);
  return inner ? `/${inner}` : "/";
}

module.exports = { computeFullPath, normalisePath };
