/**
 * Which CMS endpoints the browser may reach through /api/cms-proxy/* (with the visitor's
 * session JWT attached on the server). Anything else is refused, and so is any path that
 * tries to step outside: `..`, encoded slashes or dots, backslashes, empty segments.
 */
const ALLOWED: Array<{ method: string; path: RegExp }> = [{ method: "GET", path: /^users\/me$/ }];

/** The CMS API path (without /api/) for a proxied request, or null when it is not allowed. */
export function allowedProxyPath(method: string, rawPath: string): string | null {
  const segments: string[] = [];
  for (const raw of rawPath.split("/")) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return null;
    }
    if (!segment || segment === "." || segment === ".." || /[/\\%\u0000-\u001f]/.test(segment)) return null;
    if (segment !== raw) return null; // anything encoded is suspicious here: the allowlist has no such paths
    segments.push(segment);
  }
  const path = segments.join("/");
  return ALLOWED.some((rule) => rule.method === method && rule.path.test(path)) ? path : null;
}
