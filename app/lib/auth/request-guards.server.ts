import { AuthError } from "./errors.server.ts";

/** The header toWebRequest (@cms-site/page-cache) sets from Express's req.ip (which honours TRUST_PROXY). */
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
  const source = request.headers.get("origin") ?? originOf(request.headers.get("referer"));
  // No Origin and no Referer: not a browser acting for another site (curl, server to server).
  const foreign = source !== null && source !== expected;
  if (foreign || request.headers.get("sec-fetch-site") === "cross-site") {
    throw new AuthError("CROSS_ORIGIN");
  }
}

function originOf(url: string | null): string | null {
  if (!url) return null;
  try {
    return new URL(url).origin;
  } catch {
    return "invalid";
  }
}
