import express, { type Response } from "express";
import { Redis } from "ioredis";

/**
 * `GET /healthz` and `GET /readyz`, for load balancers and orchestrators.
 *
 * - `/healthz` (liveness): 200 as long as the process answers HTTP. It looks at nothing else,
 *   so a CMS or Redis outage never gets healthy instances restarted.
 * - `/readyz` (readiness): 200 when the CMS answers `GET /_health` and, with REDIS_URL, Redis
 *   answers PING, each within `timeoutMs`; otherwise 503 with `down` naming what failed.
 *   While the process shuts down it answers 503 too, so a balancer stops sending traffic.
 *
 * Both answer `cache-control: no-store` and JSON that names checks, never addresses, URLs or
 * error messages (the CMS URL or REDIS_URL may carry credentials, and these routes are public
 * unless the proxy hides them). Failures are logged on each change of state, not per probe.
 *
 * Where: server/index.ts mounts these on the Express host, before static files, Vite and the
 * app (server/app.ts). Not beside /metrics in server/app.ts: /metrics reads the page cache's
 * state, these read none of the app's; here the page cache's middleware never sees them (so
 * never stores them), no rate limit applies, and they work alike in development and
 * production (in development Vite reloads server/app.ts on edits, which would reopen the
 * Redis connection each time).
 * One readiness check runs at a time and its result is reused for `reuseMs`: a burst of
 * probes (or of public requests) costs the CMS at most one `/_health` call per second.
 */

export interface OperationalOptions {
  cmsUrl: string;
  redisUrl?: string;
  /** How long each dependency may take to answer (ms). */
  timeoutMs?: number;
  /** How long a readiness result is reused (ms). */
  reuseMs?: number;
  log?: (line: string) => void;
}

type Check = { status: "up" } | { status: "down"; reason: string } | { status: "not configured" };
type Readiness = { ready: boolean; checks: Record<"cms" | "redis", Check> };

export function operationalRoutes(options: OperationalOptions) {
  const timeoutMs = options.timeoutMs ?? 2_000;
  const reuseMs = options.reuseMs ?? 1_000;
  const log = options.log ?? console.warn;
  const redis = options.redisUrl ? readinessRedis(options.redisUrl, timeoutMs) : undefined;
  let draining = false;
  let last: { at: number; result: Readiness } | undefined;
  let running: Promise<Readiness> | undefined;
  const previous = new Map<string, string>();

  async function checkCms(): Promise<Check> {
    try {
      const response = await fetch(`${options.cmsUrl}/_health`, {
        signal: AbortSignal.timeout(timeoutMs),
        redirect: "manual",
      });
      await response.arrayBuffer();
      return response.ok ? { status: "up" } : { status: "down", reason: `answered ${response.status}` };
    } catch (error) {
      const timedOut = error instanceof Error && error.name === "TimeoutError";
      return { status: "down", reason: timedOut ? `no answer within ${timeoutMs} ms` : "unreachable" };
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
      return { status: "down", reason: `no answer to PING within ${timeoutMs} ms` };
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
        log(`[readyz] ${name}: ${state}`);
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

  const send = (res: Response, status: number, body: unknown) =>
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

  return {
    router,
    /** From now on /readyz answers 503 (the process is shutting down); /healthz still 200. */
    drain() {
      draining = true;
    },
    close() {
      redis?.disconnect();
    },
  };
}

/** Its own connection, quiet (the readiness log says when Redis goes down), failing fast. */
function readinessRedis(url: string, timeoutMs: number): Redis {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: timeoutMs,
    commandTimeout: timeoutMs,
    retryStrategy: (attempt) => Math.min(attempt * 200, 1_000),
  });
  redis.on("error", () => {});
  return redis;
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
