import {
  bearerMatches,
  cdnProviderOf,
  handleCdnPurge,
  handleRevalidation,
  sendWebResponse,
  toWebRequest,
  type PageCache,
} from "@cms-site/page-cache";
import express, { type Request as ExpressRequest, type Response as ExpressResponse } from "express";
import type { Redis } from "ioredis";

import { CmsError } from "../app/lib/cms/errors.server.ts";
import { createCmsHttp } from "../app/lib/cms/http.server.ts";
import type { Env } from "../app/lib/env.server.ts";
import { withDefaultLocaleVariants } from "../app/lib/locale-path.ts";
import { localeConfigOf } from "../app/lib/locales.server.ts";
import type { Log } from "../app/lib/log.ts";

/**
 * The routes that operate the site rather than show it, answered by the Express host
 * (server/index.ts) before static files, Vite, the page cache and the app, next to the state
 * they read or change:
 *
 * - `GET /healthz` (liveness): 200 as long as the process answers HTTP. It looks at nothing else,
 *   so a CMS or Redis outage never gets healthy instances restarted.
 * - `GET /readyz` (readiness): 200 when the CMS answers `GET /_health` and, with REDIS_URL, Redis
 *   answers PING (on the process's shared connection), each within `timeoutMs`; otherwise 503
 *   with `down` naming what failed. While the process shuts down it answers 503 too, so a
 *   balancer stops sending traffic.
 * - `GET /metrics` (METRICS_SECRET): the page cache's counters and the process's metrics.
 * - `POST /api/cms-revalidate` (CMS_REVALIDATE_SECRET): marks pages and CMS data stale in the
 *   page cache (handleRevalidation, @cms-site/page-cache), straight on the cache's
 *   revalidator: the request never goes through React Router.
 * - `POST /api/cdn-purge` (CMS_CDN_PURGE_SECRET): evicts pages from the CDN (handleCdnPurge, same package).
 *
 * The probes answer `cache-control: no-store` and JSON that names checks, never addresses, URLs
 * or error messages (the CMS URL or REDIS_URL may carry credentials, and these routes are public
 * unless the proxy hides them). Failures are logged on each change of state, not per probe.
 * Being on the host, none of these is ever stored by the page cache or rate-limited, and they
 * work alike in development and production (where Vite reloads server/app.ts on edits).
 * One readiness check runs at a time and its result is reused for `reuseMs`: a burst of
 * probes (or of public requests) costs the CMS at most one `/_health` call per second.
 */

export interface OperationalOptions {
  config: Env;
  /** The process's shared Redis command connection (with REDIS_URL): readiness PINGs it. */
  redis?: Redis;
  /** The page cache that /metrics reads and the revalidation route changes; without it those answer 404. */
  cache?: Pick<PageCache, "metrics" | "revalidator"> & Partial<Pick<PageCache, "refresh" | "publishClock">>;
  /** How long each dependency may take to answer (ms). */
  timeoutMs?: number;
  /** How long a readiness result is reused (ms). */
  reuseMs?: number;
  /** Readiness changes (warn), revalidations and purges (info, with the request id). */
  log: Pick<Log, "info" | "warn">;
}

type Check = { status: "up" } | { status: "down"; reason: string } | { status: "not configured" };
type Readiness = { ready: boolean; checks: Record<"cms" | "redis", Check> };

export function operationalRoutes(options: OperationalOptions) {
  const timeoutMs = options.timeoutMs ?? 2_000;
  const reuseMs = options.reuseMs ?? 1_000;
  const { config, redis, log } = options;
  let draining = false;
  let last: { at: number; result: Readiness } | undefined;
  let running: Promise<Readiness> | undefined;
  const previous = new Map<string, string>();

  // The one CMS HTTP helper (timeout, error mapping), answers read raw: any non-2xx is "down".
  const cms = createCmsHttp({ baseUrl: config.CMS_URL, timeoutMs });

  async function checkCms(): Promise<Check> {
    try {
      const response = await cms.send({ path: "/_health", redirect: "manual", headers: {} });
      await response.body?.cancel();
      return response.ok ? { status: "up" } : { status: "down", reason: `answered ${response.status}` };
    } catch (error) {
      if (!(error instanceof CmsError)) throw error;
      return { status: "down", reason: error.timedOut ? `no answer within ${timeoutMs} ms` : "unreachable" };
    }
  }

  async function checkRedis(): Promise<Check> {
    if (!redis) return { status: "not configured" };
    // A connection still being (re)opened gets the timeout to come up; the first probe after a start finds it ready.
    if (redis.status !== "ready") await whenReady(redis, timeoutMs);
    if (redis.status !== "ready") return { status: "down", reason: "not connected" };
    try {
      await redis.ping();
      return { status: "up" };
    } catch {
      // The shared connection's own command timeout (app/lib/redis.server.ts) bounds the PING.
      return { status: "down", reason: "no answer to PING" };
    }
  }

  async function check(): Promise<Readiness> {
    const [cms, redisCheck] = await Promise.all([checkCms(), checkRedis()]);
    const checks = { cms, redis: redisCheck };
    for (const [name, result] of Object.entries(checks)) {
      const state = result.status === "down" ? `down (${result.reason})` : result.status;
      const before = previous.get(name);
      // Going down, coming back, or down at the first check: once each, not on every probe.
      if (state !== before && (result.status === "down" || before?.startsWith("down")))
        log.warn(`[readyz] ${name}: ${state}`);
      previous.set(name, state);
    }
    return { ready: cms.status !== "down" && redisCheck.status !== "down", checks };
  }

  function readiness(): Promise<Readiness> {
    if (last && Date.now() - last.at < reuseMs) return Promise.resolve(last.result);
    running ??= check()
      .then((result) => {
        last = { at: Date.now(), result };
        return result;
      })
      .finally(() => (running = undefined));
    return running;
  }

  const send = (res: ExpressResponse, status: number, body: unknown) =>
    res.status(status).set("cache-control", "no-store").json(body);

  const router = express.Router();
  router.get("/healthz", (_req, res) => {
    send(res, 200, { status: "ok" });
  });
  router.get("/readyz", async (_req, res) => {
    if (draining) return send(res, 503, { status: "shutting down", down: [] });
    const { ready, checks } = await readiness();
    const down = Object.entries(checks).flatMap(([name, result]) => (result.status === "down" ? [name] : []));
    send(res, ready ? 200 : 503, { status: ready ? "ready" : "not ready", down, checks });
  });
  if (options.cache) cacheRoutes(router, options.cache, options);

  return {
    router,
    /** From now on /readyz answers 503 (the process is shutting down); /healthz still 200. */
    drain() {
      draining = true;
    },
  };
}

/** /metrics, /api/cms-revalidate and /api/cdn-purge: what operates on the page cache and the CDN. */
function cacheRoutes(
  router: express.Router,
  cache: NonNullable<OperationalOptions["cache"]>,
  options: OperationalOptions,
) {
  const { config, log } = options;
  const origin = new URL(config.APP_PUBLIC_URL).origin;
  const locales = localeConfigOf(config);
  const cdn = cdnProviderOf(config);

  router.get("/metrics", async (req, res, next) => {
    if (!config.METRICS_SECRET) return next();
    if (!bearerMatches(req.headers.authorization, config.METRICS_SECRET)) {
      res.status(401).set("www-authenticate", "Bearer").type("text/plain").send("Wrong or missing metrics secret.\n");
      return;
    }
    res
      .type(cache.metrics.contentType)
      .set("cache-control", "no-store")
      .send(await cache.metrics.metrics());
  });

  /**
   * A POST-only endpoint: the Fetch handler answers POST; anything else is 405, as before. Its
   * log lines carry the request's id (server/index.ts set it on the response).
   */
  type RequestLog = (line: string, fields?: Record<string, unknown>) => void;
  const postOnly =
    (handle: (request: Request, log: RequestLog) => Promise<Response>) =>
    async (req: ExpressRequest, res: ExpressResponse, next: express.NextFunction) => {
      const reqId = res.getHeader("x-request-id");
      const requestLog: RequestLog = (line, fields) => log.info({ reqId, ...fields }, line);
      try {
        const answer =
          req.method === "POST"
            ? await handle(toWebRequest(req, res, origin), requestLog)
            : Response.json({ error: "Use POST." }, { status: 405, headers: { allow: "POST" } });
        await sendWebResponse(res, answer, req.method);
      } catch (error) {
        next(error);
      }
    };
  router.all(
    "/api/cms-revalidate",
    postOnly((request, log) =>
      handleRevalidation(request, {
        secret: config.CMS_REVALIDATE_SECRET,
        revalidator: cache.revalidator,
        // Only in front of a CDN that is purged: without one, a publish stays stale-while-revalidate.
        refresh: cdn ? cache.refresh : undefined,
        publishClock: cache.publishClock,
        // The same page answers at `/careers` and `/en/careers` (the default locale): both go stale.
        pathVariants: (path) => withDefaultLocaleVariants(path, locales),
        log,
      }),
    ),
  );
  router.all(
    "/api/cdn-purge",
    postOnly((request, log) =>
      handleCdnPurge(request, {
        secret: config.CMS_CDN_PURGE_SECRET,
        provider: cdn,
        softPurge: config.CDN_SOFT_PURGE === "true",
        log,
      }),
    ),
  );
}

function whenReady(redis: Redis, timeoutMs: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      redis.off("ready", done);
      resolve();
    };
    const timer = setTimeout(done, timeoutMs);
    redis.once("ready", done);
  });
}
