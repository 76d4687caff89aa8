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
import { createRedisClients } from "../app/lib/redis.server.ts";
import * as serverBuild from "virtual:react-router/server-build";

import { hasSessionCookie } from "./cache/cache-key.ts";
import { declaredQueryParams } from "./cache/declared-query.ts";
import { createPageCache, PAGE_REVALIDATE_SECONDS } from "./cache/index.ts";
import {
  createResponseCacheMiddleware,
  serveFreshHit,
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

const env = getEnv();
const production = env.NODE_ENV === "production";
const handleRequest = createRequestHandler(
  () => import("virtual:react-router/server-build"),
  production ? "production" : "development",
);

const cache = createPageCache(env, createRedisClients(env.REDIS_URL), console);
const pageCache = cache.pages;
const services: SharedServices = { dataCache: cache.dataCache, revalidator: cache.revalidator };
/** The query parameters each route declares it reads (`handle.cacheQuery`): all the page cache keys on. */
const declaredQuery = declaredQueryParams(serverBuild.routes);

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

/** server/index.ts calls this once it listens (server/cache/index.ts warm). */
export function warmCache(selfUrl: string): void {
  cache.warm(selfUrl);
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

const metrics = cache.metrics;
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
    onBypass: cache.countBypass,
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
