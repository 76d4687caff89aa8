import { brotliCompressSync, constants as zlib, gzipSync } from "node:zlib";

import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from "express";

import type { CacheStatus, IsrCache, Rendered } from "./isr-cache.ts";
import { pathTag } from "./invalidations.ts";

/**
 * The response cache for CMS pages, in front of React Router: a page and its `.data`
 * twin (client-side navigation) are served from the ISR cache; anything personal is not.
 */

export interface CachedResponse {
  status: number;
  headers: Array<[string, string]>;
  body: Buffer;
  /** Compressed once when stored, so a HIT never compresses again. */
  br?: Buffer;
  gzip?: Buffer;
}

/** What rendering one request produced, and what the render touched. */
export interface PageRender {
  response: Response;
  /** Tags of every CMS fetch the render made. */
  tags: string[];
  /** The shortest interval of the route and of the fetches it made (seconds). */
  revalidate: number;
  /** The render read the session or cookies, or made a per-user CMS call. */
  dynamic: boolean;
}

export interface ResponseCacheOptions {
  cache: IsrCache<CachedResponse>;
  /** Renders a request through React Router. */
  render: (request: Request) => Promise<PageRender>;
  /** Whether a path is a page the cache may hold (not /api/*, not an auth form...). */
  isCacheablePath: (pathname: string) => boolean;
  toWebRequest: (req: ExpressRequest, res: ExpressResponse) => Request;
  send: (res: ExpressResponse, response: Response, method: string) => Promise<void>;
  onBypass?: () => void;
}

const STORABLE_STATUS = new Set([200, 202, 203, 204, 300, 301, 302, 303, 307, 308, 404, 410]);
const HOP_BY_HOP = new Set(["connection", "keep-alive", "transfer-encoding", "content-length", "content-encoding"]);
/** How long a CDN may keep serving a stale page while it fetches a new one (seconds). */
const CDN_STALE_WHILE_REVALIDATE = 86_400;

/** `/company.data` and `/company` are one page; `/_root.data` is the home page. */
export function pagePathOf(pathname: string): string {
  if (pathname === "/_root.data") return "/";
  return pathname.endsWith(".data") ? pathname.slice(0, -".data".length) : pathname;
}

function isAnonymous(req: ExpressRequest): boolean {
  return !req.headers.cookie && !req.headers.authorization;
}

export function createResponseCacheMiddleware(options: ResponseCacheOptions) {
  return async (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const url = new URL(req.originalUrl, "http://cache.local");
    const path = pagePathOf(url.pathname);
    if (!options.isCacheablePath(path)) return next();

    try {
      const request = options.toWebRequest(req, res);
      if (!isAnonymous(req)) {
        options.onBypass?.();
        const { response } = await options.render(request);
        return await sendUncached(res, response, "BYPASS", req.method, options);
      }
      const served = await options.cache.get(url.pathname + url.search, path, () =>
        renderAnonymously(request.url, path, options),
      );
      if (!served.entry) {
        return await sendUncached(res, toResponse(served.value), served.failed ? "MISS" : "BYPASS", req.method, options);
      }
      sendCached(req, res, served.value, served.status, served.entry.tags, served.entry.revalidate, path);
    } catch (error) {
      next(error);
    }
  };
}

/** A render with none of the visitor's headers: what every visitor may be shown. */
async function renderAnonymously(url: string, path: string, options: ResponseCacheOptions): Promise<Rendered<CachedResponse>> {
  const { response, tags, revalidate, dynamic } = await options.render(new Request(url, { headers: { accept: "text/html" } }));
  const body = Buffer.from(await response.arrayBuffer());
  const headers = [...response.headers].filter(([name]) => !HOP_BY_HOP.has(name));
  const value: CachedResponse = { status: response.status, headers, body };
  const cacheable =
    !dynamic && STORABLE_STATUS.has(response.status) && !response.headers.has("set-cookie");
  if (cacheable && body.length >= 1024) {
    value.br = brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5 } });
    value.gzip = gzipSync(body, { level: 6 });
  }
  const allTags = [...new Set([...tags, pathTag(path)])];
  const size =
    body.length +
    (value.br?.length ?? 0) +
    (value.gzip?.length ?? 0) +
    headers.reduce((sum, [name, headerValue]) => sum + name.length + headerValue.length, 0) +
    allTags.reduce((sum, tag) => sum + tag.length, 0) +
    path.length * 2 +
    256; // object and map overhead, roughly
  return { value, cacheable, failed: response.status >= 500, tags: allTags, revalidate, size };
}

function toResponse(cached: CachedResponse): Response {
  return new Response(cached.body.length ? new Uint8Array(cached.body) : null, {
    status: cached.status,
    headers: cached.headers,
  });
}

async function sendUncached(
  res: ExpressResponse,
  response: Response,
  status: CacheStatus | "BYPASS",
  method: string,
  options: ResponseCacheOptions,
) {
  res.setHeader("x-cache", status);
  res.setHeader("cache-control", "private, no-store");
  const headers = new Headers(response.headers);
  headers.delete("cache-control");
  await options.send(res, new Response(response.body, { status: response.status, headers }), method);
}

function sendCached(
  req: ExpressRequest,
  res: ExpressResponse,
  cached: CachedResponse,
  status: CacheStatus,
  tags: string[],
  revalidate: number,
  path: string,
) {
  res.statusCode = cached.status;
  for (const [name, value] of cached.headers) res.append(name, value);
  const accepts = String(req.headers["accept-encoding"] ?? "");
  let body = cached.body;
  if (cached.br && /\bbr\b/.test(accepts)) {
    body = cached.br;
    res.setHeader("content-encoding", "br");
  } else if (cached.gzip && /\bgzip\b/.test(accepts)) {
    body = cached.gzip;
    res.setHeader("content-encoding", "gzip");
  }
  res.setHeader("vary", "Accept-Encoding");
  res.setHeader("x-cache", status);
  // Browsers check back every time; a CDN in front may keep it for the entry's interval.
  res.setHeader("cache-control", "public, max-age=0, must-revalidate");
  res.setHeader("cdn-cache-control", `public, s-maxage=${revalidate}, stale-while-revalidate=${CDN_STALE_WHILE_REVALIDATE}`);
  const cdnTags = tags.length ? tags : [pathTag(path)];
  res.setHeader("cache-tag", cdnTags.join(","));
  res.setHeader("surrogate-key", cdnTags.map((tag) => tag.replaceAll(" ", "_")).join(" "));
  res.setHeader("content-length", String(body.length));
  res.end(req.method === "HEAD" ? undefined : body);
}
