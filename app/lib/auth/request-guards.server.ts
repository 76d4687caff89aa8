import { AuthError } from "./errors.server.ts";

/** The header server/web-http.ts sets from Express's req.ip (which honours TRUST_PROXY). */
export const CLIENT_IP_HEADER = "x-client-ip";

export function clientIpOf(request: Request): string {
  return request.headers.get(CLIENT_IP_HEADER) ?? "unknown";
}

/**
 * Refuses a state-changing request that a browser made from another site: an Origin (or,
 * without one, a Referer) that is not this site, or Sec-Fetch-Site: cross-site.
 */
export function assertSameOrigin(request: Request, appPublicUrl: string): void {
  const expected = new URL(appPublicUrl).origin;
  const origin = request.headers.get("origin");
  const referer = request.headers.get("referer");
  let source: string | null = null;
  if (origin && origin !== "null") source = origin;
  else if (referer) {
    try {
      source = new URL(referer).origin;
    } catch {
      source = "invalid";
    }
  } else if (origin === "null") source = "null";
  const crossSite = request.headers.get("sec-fetch-site") === "cross-site";
  if ((source !== null && source !== expected) || crossSite) {
    throw new AuthError(403, "CROSS_ORIGIN", "This form can only be sent from this site.");
  }
}

/** Where to go after signing in: a path on this site only, never another host. */
export function safeRedirectPath(value: FormDataEntryValue | string | null | undefined, fallback = "/account"): string {
  if (typeof value !== "string" || !value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) {
    return fallback;
  }
  if (/[\u0000-\u001f\\]/.test(value)) return fallback;
  try {
    const url = new URL(value, "http://site.invalid");
    if (url.origin !== "http://site.invalid") return fallback;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return fallback;
  }
}
