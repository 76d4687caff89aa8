/**
 * A page's URL path in the site, without locale: its parent's fullPath plus its slug.
 * A page with no parent and no slug is the home page ('/'). A page with a parent needs
 * a slug (else it would share its parent's path): that is the null answer.
 */
function computeFullPath(parentFullPath, slug) {
  const segment = (slug ?? '').trim();
  if (parentFullPath === null || parentFullPath === undefined) return segment ? `/${segment}` : '/';
  if (!segment) return null;
  return parentFullPath === '/' ? `/${segment}` : `${parentFullPath.replace(/\/+$/, '')}/${segment}`;
}

module.exports = { computeFullPath };
