import type { IncomingMessage, ServerResponse } from "node:http";

import express from "express";
import { createRequestHandler, type RouterContextProvider } from "react-router";

import { AUTH_PAGE_PATHS } from "../app/lib/auth/paths.ts";
import { getServerSession } from "../app/lib/auth/session.server.ts";
import { bearerMatches } from "../app/lib/bearer-secret.server.ts";
import { getEnv } from "../app/lib/env.server.ts";
import {
  cmsCallsContext,
  createRequestContext,
  renderFlagsContext,
  type SharedServices,
} from "../app/lib/request-context.server.ts";
import { connectRedis, warnIfUnbounded } from "../app/lib/redis.server.ts";
import * as serverBuild from "virtual:react-router/server-build";

import { CMS_REVALIDATE, createCmsClient } from "../app/lib/cms/client.server.ts";
import { listPublishedPages } from "../app/lib/cms/content.server.ts";
import { localizedPath } from "../app/lib/locale-path.ts";
import { localeConfig } from "../app/lib/locales.server.ts";
import { BudgetedStore } from "./cache/budgeted-store.ts";
import { hasSessionCookie } from "./cache/cache-key.ts";
import { cachedResponseCodec } from "./cache/cached-response-codec.ts";
import { DataCache } from "./cache/data-cache.ts";
import { declaredQueryParams } from "./cache/declared-query.ts";
import { InvalidationBus } from "./cache/redis/invalidation-bus.ts";
import { redisRemoteCache } from "./cache/redis/remote-cache.ts";
import { Invalidations } from "./cache/invalidations.ts";
import { IsrCache } from "./cache/isr-cache.ts";
import { MemoryStore } from "./cache/memory-store.ts";
import { warmStart } from "./cache/warm-start.ts";
import { createMetricsRegistry } from "./cache/metrics.ts";
import {
  createResponseCacheMiddleware,
  isNotFound,
  serveFreshHit,
  type CachedResponse,
  type PageRender,
  type RenderVariant,
} from "./cache/response-cache.ts";
import { canonicalRequests } from "./canonical-request.ts";
import { securityHeaderList } from "./security-headers.ts";
import { sendWebResponse, toWebRequest, trustProxySetting } from "./web-http.ts";

/**
 * The request handler for everything that is not a static file: the ISR response cache,
 * then React Router. It is bundled with the app by Vite (see vite.config.ts), so it shares
 * module instances, such as router contexts, with the route modules. server/index.ts mounts it.
 */

/** Interval of a cached page (seconds, docs/cms-contract.md "Limits"); its CMS fetches may shorten it. */
export const PAGE_REVALIDATE_SECONDS = 300;

const env = getEnv();
const production = env.NODE_ENV === "production";
const handleRequest = createRequestHandler(
  () => import("virtual:react-router/server-build"),
  production ? "production" : "development",
);

/** Records are kept for the longest interval (the page's and every CMS fetch's) plus a margin, no longer. */
const invalidations = new Invalidations({
  maxRevalidateSeconds: Math.max(PAGE_REVALIDATE_SECONDS, ...Object.values(CMS_REVALIDATE)),
});
let evictions = 0;
let bypasses = 0;
/** Pages get 70 % of the budget, not-found answers 5 % of their own (a scan of random paths evicts only those), CMS data 25 %. */
const pageStore = new BudgetedStore<CachedResponse>(
  new MemoryStore(env.PAGE_CACHE_MAX_BYTES * 0.7, () => evictions++),
  new MemoryStore(env.PAGE_CACHE_MAX_BYTES * 0.05),
  (entry) => isNotFound(entry.value),
);
/** The query parameters each route declares it reads (`handle.cacheQuery`): all the page cache keys on. */
const declaredQuery = declaredQueryParams(serverBuild.routes);

/**
 * With REDIS_URL, instances share rendered pages and locks (remote) and hear each other's
 * invalidations (bus); the in-process store stays in front as the local layer.
 */
let bus: InvalidationBus | undefined;
function sharedLayer() {
  if (!env.REDIS_URL) return undefined;
  const publisher = connectRedis(env.REDIS_URL, "page cache");
  void warnIfUnbounded(publisher);
  bus = new InvalidationBus(invalidations, publisher, connectRedis(env.REDIS_URL, "invalidations"));
  return redisRemoteCache(publisher, cachedResponseCodec);
}

const pageCache = new IsrCache<CachedResponse>({
  store: pageStore,
  invalidations,
  remote: production ? sharedLayer() : undefined,
  onError: (key, error) => console.error(`[cache] regenerating ${key} failed; serving the stale page`, String(error)),
});
const services: SharedServices = {
  // Development always reads the CMS afresh (docs/cms-contract.md "Limits": interval 0, data cache skipped).
  dataCache: production
    ? new DataCache(new MemoryStore<unknown>(env.PAGE_CACHE_MAX_BYTES * 0.25), invalidations)
    : undefined,
  revalidator: {
    // 'max': stale-while-revalidate (entries go stale, served once more); { expire: 0 }: entries
    // are expired, never served again (takedowns; docs/decisions/0010-takedowns-expire.md).
    revalidatePath: (path, profile = "max") => invalidations.revalidatePath(path, { expire: profile !== "max" }),
    revalidateTag: (tag, profile) => invalidations.revalidateTag(tag, { expire: profile !== "max" }),
    shared: () => bus?.sent() ?? Promise.resolve(),
  },
};

/** Per-user CMS calls take the JWT of the request's session (and so mark the render personal). */
const sessionJWTOf = (request: Request) => async (context: RouterContextProvider) =>
  (await getServerSession(request, context)).session?.cmsJWT;

async function render(request: Request, variant: RenderVariant): Promise<PageRender> {
  const context = createRequestContext(env, services, sessionJWTOf(request), variant);
  const response = await handleRequest(request, context);
  const calls = context.get(cmsCallsContext);
  return {
    response,
    tags: [...new Set(calls.flatMap((call) => call.tags))],
    revalidate: Math.min(PAGE_REVALIDATE_SECONDS, ...calls.map((call) => call.revalidate)),
    dynamic: context.get(renderFlagsContext).dynamic || calls.some((call) => call.perUser),
  };
}

/**
 * Paths that are pages (CMS content), and the sitemap (built from the CMS, revalidated by the
 * page tags like a page); everything else (API, auth pages, files) is never cached here.
 */
function isCacheablePath(pathname: string): boolean {
  if (!production || AUTH_PAGE_PATHS.includes(pathname)) return false;
  if (pathname === "/sitemap.xml") return true;
  return !/^\/(api|assets|@|__)/.test(pathname) && !/\.[a-z0-9]+$/i.test(pathname);
}

/**
 * server/index.ts calls this once it listens: the most recently updated published pages are
 * requested from `selfUrl` in the background (CACHE_WARM_PAGES of them, 4 at a time), so the
 * first visitors after a restart or deploy find them cached.
 */
export function warmCache(selfUrl: string): void {
  if (!production || env.CACHE_WARM_PAGES === 0) return;
  const cms = createCmsClient({
    baseUrl: env.CMS_URL,
    apiToken: env.CMS_REST_READONLY_API_KEY,
    timeoutMs: env.CMS_FETCH_TIMEOUT_MS,
  });
  const locales = localeConfig();
  void warmStart({
    pages: () => listPublishedPages(cms),
    pathOf: (page) => (locales.locales.includes(page.locale) ? localizedPath(page.fullPath, page.locale, locales) : ""),
    request: async (path) => {
      if (!path) return;
      const response = await fetch(`${selfUrl}${path}`, { redirect: "manual" });
      await response.arrayBuffer();
    },
    max: env.CACHE_WARM_PAGES,
    concurrency: 4,
  });
}

/** server/index.ts calls this first for every request: a fresh HIT is answered here. */
export function serveCachedPage(req: IncomingMessage, res: ServerResponse): boolean {
  return serveFreshHit(pageCache, declaredQuery, req, res);
}

/** The origin every render is made for: the configured one, never the Host a client sent. */
const origin = new URL(env.APP_PUBLIC_URL).origin;
const webRequest = (req: express.Request, res: express.Response) => toWebRequest(req, res, origin);

export const app = express();
// Also set on the host (server/index.ts), but this app answers .data and page requests itself.
app.disable("x-powered-by");
app.set("trust proxy", trustProxySetting(env.TRUST_PROXY));
app.use(canonicalRequests());

const metrics = createMetricsRegistry({ pageCache, pageStore, bypasses: () => bypasses, evictions: () => evictions });
app.get("/metrics", async (req, res, next) => {
  if (!env.METRICS_SECRET) return next();
  if (!bearerMatches(req.headers.authorization, env.METRICS_SECRET)) {
    res.status(401).set("www-authenticate", "Bearer").type("text/plain").send("Wrong or missing metrics secret.\n");
    return;
  }
  res
    .type(metrics.contentType)
    .set("cache-control", "no-store")
    .send(await metrics.metrics());
});

app.use(
  createResponseCacheMiddleware({
    cache: pageCache,
    render,
    isCacheablePath,
    toWebRequest: webRequest,
    origin,
    declaredQuery,
    send: sendWebResponse,
    baseHeaders: securityHeaderList(env),
    onBypass: () => bypasses++,
  }),
);

app.use(async (req, res, next) => {
  try {
    const request = webRequest(req, res);
    const variant = { signedIn: hasSessionCookie(req.headers.cookie) };
    const context = createRequestContext(env, services, sessionJWTOf(request), variant);
    await sendWebResponse(res, await handleRequest(request, context), req.method);
  } catch (error) {
    next(error);
  }
});
