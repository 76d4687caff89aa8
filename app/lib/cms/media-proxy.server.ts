import { CmsError } from "./errors.server.ts";
import { createCmsHttp } from "./http.server.ts";
import type { Log } from "../log.ts";
import { hasVersion } from "./image-variants.ts";

/**
 * `GET /uploads/*`: the CMS's uploaded files, streamed through the site (app/routes/uploads.$.ts).
 * Strapi's local provider gives relative `/uploads/<name>_<hash>.<ext>` URLs; the site answers
 * them on its own origin, so the CMS need not be public and the CSP's img-src 'self' covers them
 * (docs/decisions/0017). Only paths under /uploads/ are ever asked of the CMS; everything else
 * is a 404. The body is piped through as it arrives, never held whole in memory. Not in the page
 * cache (server/app.ts isCacheablePath): browsers and CDNs keep them, for a year when the address
 * carries the file's version. Variants (`/uploads/_w640/…avif`) are app/lib/cms/image-variant-proxy.server.ts's.
 */

/**
 * An address with the file's version (`?v=`, its `updatedAt`: app/lib/cms/image-variants.ts) names
 * one content for good: kept for a year. Strapi keeps a file's URL when an editor replaces it in
 * the media library, so an address without one is kept as long as a page is before it is
 * checked again (PAGE_REVALIDATE_SECONDS), then revalidated.
 */
export const MEDIA_CACHE_CONTROL = "public, max-age=31536000, immutable";
export const MEDIA_UNVERSIONED_CACHE_CONTROL = "public, max-age=300";

/**
 * An uploaded file is shown, never run: an SVG or an HTML file opened at its address on the
 * site's origin gets no scripts, no plugins and an origin of its own. Added to the site's own
 * policy (two policies: both apply).
 */
export const MEDIA_CSP = "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; sandbox";

/** Request headers passed to the CMS: conditional and range requests (video, large files). */
const FORWARDED_REQUEST_HEADERS = ["range", "if-range", "if-none-match", "if-modified-since"];
/** Answer headers passed back. Nothing else of the CMS's (cookies, its own cache policy, server). */
const FORWARDED_RESPONSE_HEADERS = [
  "content-type",
  "content-length",
  "content-range",
  "accept-ranges",
  "etag",
  "last-modified",
];
/** CMS statuses passed through as they are. */
const PASSED_STATUSES = new Set([200, 206, 304, 416]);

export interface MediaProxyConfig {
  /** CMS_URL. */
  cmsUrl: string;
  /** CMS_FETCH_TIMEOUT_MS: how long the CMS has to start answering (the body may take longer). */
  timeoutMs: number;
  fetch?: typeof fetch;
  /** Where a CMS that failed or did not answer is reported (the request's logger). */
  log: Pick<Log, "error">;
}

/**
 * The CMS path for a site path under /uploads/, each segment decoded, checked and encoded again;
 * null for anything else: another prefix, an empty or dot segment, an encoded slash, backslash or
 * control character, a broken percent-encoding.
 */
export function uploadPathOf(pathname: string): string | null {
  const prefix = "/uploads/";
  if (!pathname.startsWith(prefix)) return null;
  const segments: string[] = [];
  for (const raw of pathname.slice(prefix.length).split("/")) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return null;
    }
    if (segment === "" || segment === "." || segment === ".." || /[/\\\u0000-\u001f\u007f]/.test(segment)) {
      return null;
    }
    segments.push(encodeURIComponent(segment));
  }
  return `${prefix}${segments.join("/")}`;
}

export function plain(status: number, message: string, headers: Record<string, string> = {}): Response {
  return new Response(`${message}\n`, {
    status,
    headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store", ...headers },
  });
}

/**
 * The CMS's answer for an upload path, or the site's answer when the CMS gave none in time (503).
 * The timeout covers the CMS's first answer only: a large file may stream for longer. The
 * visitor going away (the request's signal) ends the transfer at any point.
 */
export async function askCms(
  path: string,
  ask: { method: "GET" | "HEAD"; headers: Record<string, string>; signal: AbortSignal },
  config: MediaProxyConfig,
): Promise<{ upstream: Response } | { answer: Response }> {
  const cms = createCmsHttp({ baseUrl: config.cmsUrl, timeoutMs: config.timeoutMs, fetch: config.fetch });
  try {
    const upstream = await cms.send({ path, ...ask, redirect: "manual", timeoutCovers: "headers" });
    return { upstream };
  } catch (error) {
    if (!(error instanceof CmsError)) throw error;
    config.log.error(`[media] ${path}: the CMS did not answer (${error.timedOut ? "timeout" : String(error.cause)})`);
    return {
      answer: plain(503, "The file service is temporarily unavailable. Please try again in a moment.", {
        "retry-after": "30",
      }),
    };
  }
}

/** The site's answer for a CMS status it does not pass on: its 404 stays a 404, anything else is a 502. */
export async function unusable(upstream: Response, path: string, config: MediaProxyConfig): Promise<Response> {
  await upstream.body?.cancel();
  if (upstream.status === 404) return plain(404, "There is no file at this address.");
  config.log.error(`[media] ${path}: the CMS answered ${upstream.status}`);
  return plain(502, "The file service sent an answer we could not use. Please try again later.");
}

/** Answers one GET or HEAD request for an uploaded file. */
export async function proxyUpload(request: Request, config: MediaProxyConfig): Promise<Response> {
  if (request.method !== "GET" && request.method !== "HEAD") {
    return plain(405, "Uploaded files can only be read (GET or HEAD).", { allow: "GET, HEAD" });
  }
  const path = uploadPathOf(new URL(request.url).pathname);
  if (!path) return plain(404, "There is no file at this address.");

  const headers: Record<string, string> = {};
  for (const name of FORWARDED_REQUEST_HEADERS) {
    const value = request.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  const asked = await askCms(
    path,
    { method: request.method === "HEAD" ? "HEAD" : "GET", headers, signal: request.signal },
    config,
  );
  if ("answer" in asked) return asked.answer;
  const { upstream } = asked;
  if (!PASSED_STATUSES.has(upstream.status)) return unusable(upstream, path, config);
  const versioned = hasVersion(new URL(request.url));
  const answer = new Headers({
    "cache-control": versioned ? MEDIA_CACHE_CONTROL : MEDIA_UNVERSIONED_CACHE_CONTROL,
    "content-security-policy": MEDIA_CSP,
  });
  for (const name of FORWARDED_RESPONSE_HEADERS) {
    const value = upstream.headers.get(name);
    if (value !== null) answer.set(name, value);
  }
  if (!answer.has("content-type") && upstream.status !== 304) answer.set("content-type", "application/octet-stream");
  return new Response(request.method === "HEAD" ? null : upstream.body, { status: upstream.status, headers: answer });
}
