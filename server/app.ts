import {
  createPageRefresher,
  createResponseCacheMiddleware,
  keyInputsOf,
  pagePathOf,
  sendWebResponse,
  toWebRequest,
  type KeyInputsOf,
  type PageCache,
  type PageRender,
  type RenderVariant,
  type ResponseCacheOptions,
} from "@cms-site/page-cache";
import express from "express";
import { createRequestHandler, type RouterContextProvider } from "react-router";

import { createAuthServices } from "../app/lib/auth/auth.server.ts";
import { createSearchLimiter } from "../app/lib/search/rate-limit.server.ts";
import { createImageVariants } from "../app/lib/cms/image-variants.server.ts";
import { isAuthPagePath } from "../app/lib/auth/paths.ts";
import { getServerSession } from "../app/lib/auth/session.server.ts";
import { cookieNamesFor } from "../app/lib/cookie-names.ts";
import type { Env } from "../app/lib/env.server.ts";
import type { Log } from "../app/lib/log.ts";
import { NO_STORE_ANYWHERE } from "../app/lib/no-store.ts";
import type { RedisClients } from "../app/lib/redis.server.ts";
import { isBlogFeedPath } from "../app/lib/blog/paths.ts";
import { isSearchPagePath } from "../app/lib/search/paths.ts";
import { isSitemapPartPath } from "../app/lib/seo/sitemap.ts";
import { createRequestContext, renderReadsContext, type SharedServices } from "../app/lib/request-context.server.ts";
import * as serverBuild from "virtual:react-router/server-build";

import { canonicalRequests, routePathsOf } from "./canonical-request.ts";
import { hasSessionCookie, PAGE_REVALIDATE_SECONDS, visitorPolicyFor } from "./page-cache-policy.ts";
import { securityHeaderList } from "./security-headers.ts";
import { trustProxySetting } from "./trust-proxy.ts";

/**
 * The request handler for everything that is not a static file or an operational route: the
 * page cache's middleware, then React Router. It is bundled with the app by Vite (see
 * vite.config.ts), so it shares module instances, such as router contexts, with the route
 * modules. server/index.ts builds the configuration and the page cache once and calls
 * createApp with them (in development again whenever Vite reloads this module).
 */

export interface AppDeps {
  config: Env;
  cache: PageCache;
  redis: RedisClients;
  log: Log;
}

export interface App {
  handler: express.Express;
  /** What the routes matching a path let into the page cache's key: declared query, `_routes` ids. */
  declaredQuery: KeyInputsOf;
  /** Whether a request target (`req.url`) is in its one spelling: the fast path answers no other (server/index.ts). */
  isCanonical: (url: string) => boolean;
}

/**
 * What made image variants may take in memory (docs/decisions/0036): a page's images are a few
 * KB each as AVIF, so this holds thousands; a CDN in front keeps them for a year anyway.
 */
const IMAGE_VARIANT_CACHE_BYTES = 64 * 1024 * 1024;

/** Per-user CMS calls take the JWT of the request's session (and so mark the render personal). */
const sessionJWTOf = (request: Request) => async (context: RouterContextProvider) =>
  (await getServerSession(request, context)).session?.cmsJWT;

export function createApp({ config, cache, redis, log }: AppDeps): App {
  const production = config.NODE_ENV === "production";
  // The build this module was bundled with (in development Vite reloads this module, build and all).
  const handleRequest = createRequestHandler(serverBuild, production ? "production" : "development");
  const services: SharedServices = {
    dataCache: cache.dataCache,
    auth: createAuthServices(config, redis.commands(), log),
    searchLimiter: createSearchLimiter(config, redis.commands()),
    imageVariants: createImageVariants({ maxBytes: IMAGE_VARIANT_CACHE_BYTES, registry: cache.metrics }),
    log,
  };
  const declaredQuery = keyInputsOf(serverBuild.routes);

  async function render(request: Request, variant: RenderVariant): Promise<PageRender> {
    const context = createRequestContext(config, services, sessionJWTOf(request), variant, requestIds.get(request));
    const response = await handleRequest(request, context);
    // What the render's CMS calls recorded (tags, intervals, per user) and whether it read the session.
    return { response, ...context.get(renderReadsContext).summary(PAGE_REVALIDATE_SECONDS) };
  }

  /**
   * Paths that are pages (CMS content), and the sitemap and its part files (built from the CMS,
   * revalidated by the page tags like a page); everything else (API, auth pages, files) is never cached here.
   * It compares exact strings: it only ever sees canonical paths (canonicalRequests runs first, and the
   * fast path answers canonical targets only), where the site's routes are spelt in their own case.
   */
  function isCacheablePath(pathname: string): boolean {
    // The auth pages in both spellings (`/sign-in`, `/de/sign-in`): personal, never stored.
    if (!production || isAuthPagePath(pathname)) return false;
    // The search page: its answer depends on the query a visitor types, which no cache key holds.
    if (isSearchPagePath(pathname)) return false;
    if (pathname === "/sitemap.xml" || isSitemapPartPath(pathname) || isBlogFeedPath(pathname)) return true;
    // /uploads/*: the CMS's files, streamed through (app/lib/cms/media-proxy.server.ts), never stored here.
    return (
      !/^\/(api|assets|@|__)/.test(pathname) && !/^\/uploads(\/|$)/.test(pathname) && !/\.[a-z0-9]+$/i.test(pathname)
    );
  }

  /** The origin every render is made for: the configured one, never the Host a client sent. */
  const origin = new URL(config.APP_PUBLIC_URL).origin;
  const cookieNames = cookieNamesFor(config.APP_PUBLIC_URL);
  /**
   * The id server/index.ts gave each request (on its response), by the Fetch request made of it: the
   * page cache's renders get only the latter. A refresh's own request has none; entries go with their requests.
   */
  const requestIds = new WeakMap<Request, string>();
  const webRequest = (req: express.Request, res: express.Response) => {
    const request = toWebRequest(req, res, origin);
    const id = res.getHeader("x-request-id");
    if (typeof id === "string") requestIds.set(request, id);
    return request;
  };

  const app = express();
  // Also set on the host (server/index.ts), but this app answers .data and page requests itself.
  app.disable("x-powered-by");
  app.set("trust proxy", trustProxySetting(config.TRUST_PROXY));
  // Before anything decides about the path (the cache, isCacheablePath, isAuthPagePath, React
  // Router): one spelling per address, the site's routes in their own letter case.
  const canonical = canonicalRequests(routePathsOf(serverBuild.routes));
  app.use(canonical.middleware);
  const responseCache: ResponseCacheOptions = {
    cache: cache.pages,
    render,
    isCacheablePath,
    toWebRequest: webRequest,
    origin,
    visitors: visitorPolicyFor(cookieNames),
    declaredQuery,
    send: sendWebResponse,
    baseHeaders: securityHeaderList(config),
    onBypass: cache.countBypass,
    publishClock: cache.publishClock,
    cdnMaxAge: cache.cdnMaxAge,
  };
  app.use(createResponseCacheMiddleware(responseCache));
  // A revalidation renders its stale pages again before it is answered (decision 0028).
  cache.useRefresher(createPageRefresher(responseCache));
  app.use(async (req, res, next) => {
    try {
      const request = webRequest(req, res);
      const variant = { signedIn: hasSessionCookie(req.headers.cookie, cookieNames) };
      const context = createRequestContext(config, services, sessionJWTOf(request), variant, requestIds.get(request));
      const response = await handleRequest(request, context);
      // Auth pages (and their .data) are personal: no browser, proxy or CDN keeps them, whatever its
      // defaults (the page cache never does: isCacheablePath). A header the route sets itself wins.
      if (isAuthPagePath(pagePathOf(req.path))) {
        for (const [name, value] of Object.entries(NO_STORE_ANYWHERE)) {
          if (!response.headers.has(name)) res.setHeader(name, value);
        }
      }
      await sendWebResponse(res, response, req.method);
    } catch (error) {
      next(error);
    }
  });
  return { handler: app, declaredQuery, isCanonical: canonical.isCanonical };
}
