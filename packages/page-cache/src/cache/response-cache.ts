import type { IncomingMessage, ServerResponse } from "node:http";
import { brotliCompressSync, constants as zlib, gzipSync } from "node:zlib";

import { isDocumentTag } from "@cms-site/cache-tags";
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from "express";
import { LRUCache } from "lru-cache";

import { sendWebResponse, toWebRequest } from "../http/express-fetch.ts";
import { pageKeyOf, type PageKeyOutcome, type VisitorPolicy } from "./cache-key.ts";
import type { KeyInputsOf } from "./declared-query.ts";
import { pathTag } from "./invalidations.ts";
import type { CacheStatus, IsrCache, Rendered } from "./isr-cache.ts";
import { viaOf, type PublishClock } from "./publish-clock.ts";

/**
 * The response cache for CMS pages, in front of React Router: a page and its `.data`
 * twin (client-side navigation) are served from the ISR cache; anything personal is not.
 * A HIT is answered by serveFreshHit() straight from the Node server, before Express: its
 * bytes, compressed variants and complete header lists were prepared when it was stored.
 *
 * Every visitor is served from the cache, whatever cookies they carry: a page has two
 * variants, for visitors with and without a session (keyed on the site's VisitorPolicy.signedIn,
 * never a cookie's value; see cache-key.ts). Both are
 * rendered with none of the visitor's headers. Only a render that turns out to read the
 * session itself (`dynamic`) is personal: it is sent to that visitor alone, and the path is
 * remembered as personal so that later visitors with cookies get their own render at once.
 */

type Encoding = "identity" | "br" | "gzip";

export interface CachedResponse {
  status: number;
  /** The render's own headers (for a visitor who gets it as a MISS). */
  headers: Array<[string, string]>;
  body: Buffer;
  /** Compressed once when stored, so a HIT never compresses again. */
  br?: Buffer;
  gzip?: Buffer;
  /** Complete header lists for a cached answer, by encoding, ending in `x-cache: HIT`. */
  wire?: Record<Encoding, string[] | undefined>;
  /** The render read the session or cookies: it was never stored, and must not be shown to others. */
  personal?: boolean;
  /** The first render after a publish: the CMS's commit time of it (publish-clock.ts). */
  committedAt?: number;
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

/**
 * A not-found answer (404, 410): kept in a small budget of its own (server/app.ts) and never
 * written to the shared layer, so strangers asking for random paths evict and fill nothing.
 */
export function isNotFound(cached: Pick<CachedResponse, "status">): boolean {
  return cached.status === 404 || cached.status === 410;
}

/** What a render for the shared cache is made for: which variant of the page. */
export interface RenderVariant {
  /** The signed-in variant: the visitor carries a session cookie (its value is never used). */
  signedIn: boolean;
}

export interface ResponseCacheOptions {
  cache: IsrCache<CachedResponse>;
  /** Renders a request through React Router. */
  render: (request: Request, variant: RenderVariant) => Promise<PageRender>;
  /** The site's origin (APP_PUBLIC_URL): shared renders are made for it. */
  origin: string;
  /** The site's policy: who is signed in, which requests the cache leaves alone (cache-key.ts). */
  visitors: VisitorPolicy;
  /** What the routes for a path let into its key: declared query, `_routes` ids (declared-query.ts). */
  declaredQuery: KeyInputsOf;
  /** Whether a path is a page the cache may hold (not /api/*, not an auth form...). */
  isCacheablePath: (pathname: string) => boolean;
  /** The render's Web Request for an Express request: toWebRequest (http/express-fetch.ts) for `origin` by default. */
  toWebRequest?: (req: ExpressRequest, res: ExpressResponse) => Request;
  /** Writes a Web Response to Express: sendWebResponse by default. */
  send?: (res: ExpressResponse, response: Response, method: string) => Promise<void>;
  /** Headers every response carries (security headers), added to cached answers. */
  baseHeaders?: Array<[string, string]>;
  onBypass?: () => void;
  /** publish_to_visible_seconds (publish-clock.ts). */
  publishClock?: PublishClock;
  /**
   * The s-maxage a CDN is given (CDN_S_MAXAGE: a day when the CDN is purged on every publish);
   * undefined: the entry's own interval (docs/decisions/0028-publish-to-visible-at-the-edge.md).
   */
  cdnMaxAge?: number;
  /** The tags a CDN is told a page carries (Cache-Tag, Surrogate-Key); cdnTags() below by default. */
  cdnTags?: (tags: readonly string[]) => string[];
}

const STORABLE_STATUS = new Set([200, 202, 203, 204, 300, 301, 302, 303, 307, 308, 404, 410]);
const HOP_BY_HOP = new Set(["connection", "keep-alive", "transfer-encoding", "content-length", "content-encoding"]);
/** How long a CDN may keep serving a stale page while it fetches a new one (seconds). */
const CDN_STALE_WHILE_REVALIDATE = 86_400;
/**
 * The most a page's Cache-Tag (and Surrogate-Key) header may hold, in bytes: under Varnish's
 * default limit of a response header line (http_resp_hdr_len, 8 KB) and the 16 KB Cloudflare
 * and Fastly take.
 */
export const CDN_TAG_HEADER_BYTES = 8_000;

/**
 * The tags a CDN is told a page carries: all of them while they fit in CDN_TAG_HEADER_BYTES;
 * past that (the sitemap records every document it lists) all but the documents' tags: its type
 * and list tags still let a purge reach it, and the CDN keeps it s-maxage at most. The page cache
 * itself keeps every tag.
 */
export function cdnTags(tags: readonly string[]): string[] {
  const bytes = (list: readonly string[]) => list.reduce((sum, tag) => sum + tag.length + 1, 0);
  if (bytes(tags) <= CDN_TAG_HEADER_BYTES) return [...tags];
  const kept: string[] = [];
  let used = 0;
  for (const tag of tags) {
    if (isDocumentTag(tag) || used + tag.length + 1 > CDN_TAG_HEADER_BYTES) continue;
    kept.push(tag);
    used += tag.length + 1;
  }
  return kept;
}

/**
 * `/company.data` and `/company` are one page; `/_.data` is the home page's data (React Router 8:
 * a path that ends in a slash asks for `<path>/_.data`).
 */
export function pagePathOf(pathname: string): string {
  if (pathname.endsWith("/_.data")) return pathname.slice(0, -"_.data".length);
  return pathname.endsWith(".data") ? pathname.slice(0, -".data".length) : pathname;
}

/** The key a request is served under (the query keeps only what the route declares), or why it has none. */
export function requestKey(req: IncomingMessage, declaredQuery: KeyInputsOf, visitors: VisitorPolicy): PageKeyOutcome {
  return pageKeyOf(req.url ?? "/", declaredQuery, visitors.signedIn(req.headers.cookie));
}

function pickEncoding(cached: CachedResponse, acceptEncoding: string | undefined): Encoding {
  if (!acceptEncoding) return "identity";
  if (cached.br && /\bbr\b/.test(acceptEncoding)) return "br";
  if (cached.gzip && /\bgzip\b/.test(acceptEncoding)) return "gzip";
  return "identity";
}

function writeCached(
  req: IncomingMessage,
  res: ServerResponse,
  cached: CachedResponse,
  status: CacheStatus,
  requestId?: string,
  publishClock?: PublishClock,
) {
  const encoding = pickEncoding(cached, req.headers["accept-encoding"]);
  const headers = cached.wire?.[encoding] ?? [];
  // The lists end in x-cache: HIT, ready for the fast path; other statuses get a copy. On the
  // fast path nothing was set with setHeader (Node would then merge header by header): the
  // request id is appended to the prepared list instead.
  const list = status === "HIT" ? headers : [...headers.slice(0, -2), "x-cache", status];
  if (status === "STALE") {
    // An old render: no CDN may keep it, or a purge that reached the CDN before this instance
    // had the new page would be undone for the CDN's whole s-maxage (decision 0028).
    const at = list.indexOf("cdn-cache-control");
    if (at >= 0 && at % 2 === 0) list[at + 1] = "no-store";
  } else if (cached.committedAt !== undefined) {
    publishClock?.served(cached, viaOf(req.headers));
  }
  res.writeHead(cached.status, requestId ? list.concat("x-request-id", requestId) : list);
  res.end(req.method === "HEAD" ? undefined : encoding === "identity" ? cached.body : cached[encoding]);
}

/**
 * The fast path: answers a fresh HIT for a GET/HEAD and returns true; returns false for
 * everything else (stale, missing, personal), which then goes through Express. Only keys
 * the middleware below stored can match, and it stores canonical paths only: a request in
 * another spelling finds nothing here and is redirected by Express.
 */
export function serveFreshHit(
  cache: IsrCache<CachedResponse>,
  declaredQuery: KeyInputsOf,
  visitors: VisitorPolicy,
  req: IncomingMessage,
  res: ServerResponse,
  requestId?: string,
  publishClock?: PublishClock,
): boolean {
  if ((req.method !== "GET" && req.method !== "HEAD") || visitors.bypasses(req.headers) || !req.url) return false;
  const page = requestKey(req, declaredQuery, visitors);
  // A query with no key (`_routes` forged or without the page's route) is the middleware's.
  const entry = page.kind === "key" && cache.peekFresh(page.key);
  if (!entry) return false;
  writeCached(req, res, entry.value, "HIT", requestId, publishClock);
  return true;
}

/** Pages a revalidation re-renders before it is answered, and how many at once. */
const REFRESH_MAX_PATHS = 200;
const REFRESH_CONCURRENCY = 4;

/**
 * Re-renders the anonymous page of each path that is cached and stale, before the revalidation is
 * answered (with a CDN: the purge that follows then fetches the new page, never the old one;
 * docs/decisions/0028-publish-to-visible-at-the-edge.md). At most REFRESH_MAX_PATHS paths (the rest
 * go stale as usual), REFRESH_CONCURRENCY at a time; wildcards and failures are skipped. Resolves
 * with the number of pages rendered.
 */
export function createPageRefresher(options: ResponseCacheOptions) {
  return async (paths: readonly string[]): Promise<number> => {
    const queue = paths
      .filter((path) => !path.endsWith("*") && options.isCacheablePath(path))
      .slice(0, REFRESH_MAX_PATHS);
    let rendered = 0;
    const worker = async () => {
      for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
        const page = pageKeyOf(path, options.declaredQuery, false);
        if (page.kind !== "key") continue;
        const url = page.url;
        const done = await options.cache
          .refresh(page.key, path, () => renderShared(`${options.origin}${url}`, path, { signedIn: false }, options))
          .catch(() => false);
        if (done) rendered += 1;
      }
    };
    await Promise.all(Array.from({ length: REFRESH_CONCURRENCY }, worker));
    return rendered;
  };
}

/** Paths whose render read the session: visitors with cookies get their own render there. */
const PERSONAL_PATHS_MAX = 10_000;
const PERSONAL_PATHS_TTL_MS = 10 * 60_000;

export function createResponseCacheMiddleware(options: ResponseCacheOptions) {
  const personal = new LRUCache<string, true>({ max: PERSONAL_PATHS_MAX, ttl: PERSONAL_PATHS_TTL_MS });
  const sendPersonal = async (req: ExpressRequest, res: ExpressResponse, variant: RenderVariant) => {
    options.onBypass?.();
    const { response } = await options.render(
      options.toWebRequest?.(req, res) ?? toWebRequest(req, res, options.origin),
      variant,
    );
    await sendUncached(res, response, "BYPASS", req.method, options);
  };
  return async (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    // Concatenated, not resolved: `new URL("//x", base)` would read "//x" as another host.
    const path = pagePathOf(new URL(`http://cache.local${req.originalUrl}`).pathname);
    if (!options.isCacheablePath(path)) return next();

    try {
      const page = requestKey(req, options.declaredQuery, options.visitors);
      // Neither rendered nor stored: a render per forged value would cost the CMS what a key would cost memory.
      if (page.kind === "refused") return refuse(res, page.reason);
      const variant = { signedIn: options.visitors.signedIn(req.headers.cookie) };
      if (page.kind === "uncached") return await sendPersonal(req, res, variant);
      const visitorSpecific =
        options.visitors.bypasses(req.headers) || (Boolean(req.headers.cookie) && personal.has(page.url));
      if (visitorSpecific) return await sendPersonal(req, res, variant);
      const served = await options.cache.get(page.key, path, () =>
        renderShared(`${options.origin}${page.url}`, path, variant, options),
      );
      if (!served.entry) {
        if (served.value.personal) {
          // This page reads the session: never shared. A visitor with cookies gets their own render.
          personal.set(page.url, true);
          if (req.headers.cookie) return await sendPersonal(req, res, variant);
        }
        return await sendUncached(
          res,
          toResponse(served.value),
          served.failed ? "MISS" : "BYPASS",
          req.method,
          options,
        );
      }
      writeCached(req, res, served.value, served.status, undefined, options.publishClock);
    } catch (error) {
      next(error);
    }
  };
}

/** A 400 for a query the cache cannot key (cache-key.ts): plain text, kept by nobody. */
function refuse(res: ExpressResponse, reason: string) {
  res.writeHead(400, { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" });
  res.end(`${reason}\n`);
}

/** A render with none of the visitor's headers: what every visitor of this variant may be shown. */
async function renderShared(
  url: string,
  path: string,
  variant: RenderVariant,
  options: ResponseCacheOptions,
): Promise<Rendered<CachedResponse>> {
  // Taken before the render starts: this render is the first to show the publish.
  const committedAt = options.publishClock?.takeFor(path);
  const { response, tags, revalidate, dynamic } = await options.render(
    new Request(url, { headers: { accept: "text/html" } }),
    variant,
  );
  const body = Buffer.from(await response.arrayBuffer());
  const headers = [...response.headers].filter(([name]) => !HOP_BY_HOP.has(name) && name !== "cache-control");
  const value: CachedResponse = { status: response.status, headers, body, personal: dynamic || undefined };
  // A route that says no-store (a sitemap part that does not exist: one per number a stranger
  // may invent) is answered and kept by nobody.
  const cacheable =
    !dynamic &&
    STORABLE_STATUS.has(response.status) &&
    !response.headers.has("set-cookie") &&
    !/\bno-store\b/i.test(response.headers.get("cache-control") ?? "");
  const allTags = [...new Set([...tags, pathTag(path)])];
  if (cacheable) {
    if (body.length >= 1024) {
      value.br = brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5 } });
      value.gzip = gzipSync(body, { level: 6 });
    }
    if (committedAt !== undefined) value.committedAt = committedAt;
    value.wire = wireHeaders(
      value,
      (options.cdnTags ?? cdnTags)(allTags),
      options.cdnMaxAge ?? revalidate,
      variant,
      options.baseHeaders ?? [],
    );
  }
  const wireBytes = Object.values(value.wire ?? {}).reduce((sum, list) => sum + (list?.join("").length ?? 0), 0);
  const size =
    body.length +
    (value.br?.length ?? 0) +
    (value.gzip?.length ?? 0) +
    headers.reduce((sum, [name, headerValue]) => sum + name.length + headerValue.length, 0) +
    wireBytes +
    allTags.reduce((sum, tag) => sum + tag.length, 0) +
    url.length * 2 +
    512; // objects, arrays and map slots, roughly
  return {
    value,
    cacheable,
    failed: response.status >= 500,
    tags: allTags,
    revalidate,
    size,
    shareable: !isNotFound(value),
  };
}

/** Every header of a cached answer, once per encoding, as flat [name, value, ...] lists. */
function wireHeaders(
  cached: CachedResponse,
  /** What the CDN is told (ResponseCacheOptions.cdnTags). */
  told: string[],
  cdnMaxAge: number,
  variant: RenderVariant,
  baseHeaders: Array<[string, string]>,
): Record<Encoding, string[] | undefined> {
  const own = new Set(cached.headers.map(([name]) => name));
  // A CDN keys on the URL: it may keep the anonymous variant (for requests with no cookie at
  // all, as Vary: Cookie says), never the signed-in one, which it could not tell apart.
  const cdn: Array<[string, string]> = variant.signedIn
    ? [
        ["cache-control", "private, max-age=0, must-revalidate"],
        ["cdn-cache-control", "no-store"],
      ]
    : [
        // Browsers check back every time; a CDN in front may keep it for the entry's interval, or
        // longer when it is purged on every publish (ResponseCacheOptions.cdnMaxAge).
        ["cache-control", "public, max-age=0, must-revalidate"],
        ["cdn-cache-control", `public, s-maxage=${cdnMaxAge}, stale-while-revalidate=${CDN_STALE_WHILE_REVALIDATE}`],
      ];
  const common: Array<[string, string]> = [
    ...baseHeaders.filter(([name]) => !own.has(name)),
    ...cached.headers,
    ["vary", "Accept-Encoding, Cookie"],
    ...cdn,
    ["cache-tag", told.join(",")],
    ["surrogate-key", told.map((tag) => tag.replaceAll(" ", "_")).join(" ")],
  ];
  const forEncoding = (body: Buffer | undefined, encoding?: string) =>
    body &&
    [
      ...common,
      ...(encoding ? ([["content-encoding", encoding]] as Array<[string, string]>) : []),
      ["content-length", String(body.length)],
      ["x-cache", "HIT"],
    ].flat();
  return {
    identity: forEncoding(cached.body),
    br: forEncoding(cached.br, "br"),
    gzip: forEncoding(cached.gzip, "gzip"),
  };
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
  await (options.send ?? sendWebResponse)(
    res,
    new Response(response.body, { status: response.status, headers }),
    method,
  );
}
