import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { createPageCache, PURGED_CDN_MAX_AGE_SECONDS, serveFreshHit } from "@cms-site/page-cache";
import compression from "compression";
import express from "express";

import { CMS_REVALIDATE } from "../app/lib/cms/client.server.ts";
import { cookieNamesFor } from "../app/lib/cookie-names.ts";
import { EnvError, parseEnv, type Env } from "../app/lib/env.server.ts";
import { createLogger, requestIdOf } from "../app/lib/logger.server.ts";
import { createRedisClients } from "../app/lib/redis.server.ts";
import { refuseOtherMethods } from "./allowed-methods.ts";
import type { App, AppDeps } from "./app.ts";
import { operationalRoutes } from "./operational-routes.ts";
import { PAGE_REVALIDATE_SECONDS, visitorPolicyFor } from "./page-cache-policy.ts";
import { requestLogger } from "./request-log.ts";
import { securityHeaders } from "./security-headers.ts";
import { warmStartSources } from "./warm-start-sources.ts";
import { trustProxySetting } from "./trust-proxy.ts";

/**
 * The Express host. Development: Vite's middleware (HMR) and the app loaded through
 * Vite on every request. Production: the built client with long-lived caching for
 * hashed assets, and the built request handler (server/app.ts) from build/server.
 * This is where the process's services are made, once: the configuration, the logger, the
 * Redis connections and the page cache; everything else receives them.
 */

// React Router 8 and the rest need Node.js 22.22+: say so plainly instead of failing somewhere
// deep inside (scripts/install.sh brings Node 24 and `npm start` runs on it).
const [nodeMajor = 0, nodeMinor = 0] = process.versions.node.split(".").map(Number);
if (nodeMajor < 22 || (nodeMajor === 22 && nodeMinor < 22)) {
  process.stderr.write(
    `Node.js ${process.versions.node} cannot run this site: it needs Node.js 22.22 or later (24 recommended). ` +
      "Start it with `npm start` after scripts/install.sh, which brings Node.js 24 when the machine's is older.\n",
  );
  process.exit(1);
}

function loadEnv(): Env {
  try {
    return parseEnv(process.env);
  } catch (error) {
    if (!(error instanceof EnvError)) throw error;
    // Plain text for the person starting the site (the logger's level is part of what failed).
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}

const env = loadEnv();
// The project root: this file runs as server/index.ts (tsx, development) or bundled as
// build/server-entry.mjs (`npm run build`, production); both sit one level below the root.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const host = express();
const log = createLogger(env.LOG_LEVEL);
const redis = createRedisClients(env.REDIS_URL, log);
const production = env.NODE_ENV === "production";
/** With REDIS_URL, in production only: instances share pages and hear each other's invalidations. */
const redisCommands = production ? redis.commands() : undefined;
// The page cache (packages/page-cache), told this site's sizes, Redis and policy.
const cache = createPageCache({
  maxBytes: env.PAGE_CACHE_MAX_BYTES,
  // Records are kept for the longest interval: the page's and every CMS fetch's.
  maxRevalidateSeconds: Math.max(PAGE_REVALIDATE_SECONDS, ...Object.values(CMS_REVALIDATE)),
  // Development always reads the CMS afresh (docs/cms-contract.md "Limits": interval 0, data cache skipped).
  dataCache: production,
  redis: redisCommands && { commands: redisCommands, subscriber: redis.subscriber() },
  // A day with a CDN that is purged on every publish, the entry's interval without one (decision 0028).
  cdnMaxAge: env.CDN_S_MAXAGE ?? (env.CDN_PROVIDER === "none" ? undefined : PURGED_CDN_MAX_AGE_SECONDS),
  warmStart: production ? { sources: warmStartSources(env), max: env.CACHE_WARM_PAGES } : undefined,
  logger: log,
});
const visitors = visitorPolicyFor(cookieNamesFor(env.APP_PUBLIC_URL));
/**
 * Production: fresh cached pages are answered before Express (serveFreshHit, @cms-site/page-cache),
 * for canonical targets only: any other spelling (`/About`, `/about/`, `/about#session`) goes on
 * to its 308 or 400 (server/canonical-request.ts), whatever key it would read.
 */
let serveCachedPage: (req: IncomingMessage, res: ServerResponse, requestId: string) => boolean = () => false;
host.disable("x-powered-by");
host.set("trust proxy", trustProxySetting(env.TRUST_PROXY));
host.use(securityHeaders(env));
// /healthz, /readyz, /metrics, /api/cms-revalidate, /api/cdn-purge, before static files, Vite,
// the page cache and the app: never cached or rate-limited, alike in development and production.
const operational = operationalRoutes({ config: env, redis: redis.commands(), cache, log });
host.use(operational.router);
host.use(compression());

if (env.NODE_ENV === "production") {
  const client = path.join(root, "build/client");
  // File names under assets/ carry a content hash: cache them for a year.
  host.use("/assets", express.static(path.join(client, "assets"), { immutable: true, maxAge: "1y", index: false }));
  // The favicon has no content hash in its name, but it rarely changes and every new visitor asks: a week.
  const longLived = /[\\/]favicon\.(?:ico|svg)$/;
  const serveClientFile = express.static(client, {
    maxAge: "1h",
    index: false,
    setHeaders: (res, file) => {
      if (longLived.test(file)) res.setHeader("Cache-Control", "public, max-age=604800");
    },
  });
  // Only what names an entry of build/client (fixed once built) is handed to the file server: every
  // other request, each page render among them, would cost a file-system lookup that finds nothing.
  const clientEntries = new Set(readdirSync(client));
  host.use((req, res, next) =>
    clientEntries.has(firstSegmentOf(req.path)) ? serveClientFile(req, res, next) : next(),
  );
  const build = (await import(path.join(root, "build/server/index.js"))) as {
    createApp: (deps: AppDeps) => App;
  };
  const app = build.createApp({ config: env, cache, redis, log });
  serveCachedPage = (req, res, requestId) =>
    app.isCanonical(req.url ?? "/") &&
    serveFreshHit(cache.pages, app.declaredQuery, visitors, req, res, requestId, cache.publishClock);
  host.use(app.handler);
} else {
  const vite = await import("vite");
  const viteDevServer = await vite.createServer({ root, server: { middlewareMode: true } });
  host.use(viteDevServer.middlewares);
  const apps = new WeakMap<object, App>();
  host.use(async (req, res, next) => {
    try {
      const source = (await viteDevServer.ssrLoadModule("./server/app.ts")) as { createApp: (deps: AppDeps) => App };
      // Vite hands out the same module until an edit reloads it: one app per module instance.
      let app = apps.get(source);
      if (!app) apps.set(source, (app = source.createApp({ config: env, cache, redis, log })));
      await app.handler(req, res, next);
    } catch (error) {
      if (error instanceof Error) viteDevServer.ssrFixStacktrace(error);
      next(error);
    }
  });
}

/** A path's first segment as the file system would name it (`/favicon%2Eico`: favicon.ico); "" if undecodable. */
function firstSegmentOf(pathname: string): string {
  try {
    return decodeURIComponent(pathname.split("/")[1] ?? "");
  } catch {
    return "";
  }
}

const logRequest = requestLogger(log);
const server = createServer((req, res) => {
  // Taken from a proxy in front when it is plainly an id, else made here; echoed and logged.
  const reqId = requestIdOf(req.headers["x-request-id"]);
  let hit = false;
  logRequest?.(req, res, reqId, () => hit);
  if (refuseOtherMethods(req, res, reqId)) return;
  hit = serveCachedPage(req, res, reqId);
  if (hit) return;
  res.setHeader("x-request-id", reqId);
  host(req, res);
});
// Longer than the idle timeout of common load balancers (60 s), so they close first.
server.keepAliveTimeout = 65_000;
server.headersTimeout = 66_000;
server.listen(env.PORT, env.HOST, () => {
  log.info(`Site ready at ${env.APP_PUBLIC_URL} (listening on ${env.HOST}:${env.PORT}, ${env.NODE_ENV})`);
  const local = ["0.0.0.0", "::"].includes(env.HOST) ? "127.0.0.1" : env.HOST;
  cache.warm(`http://${local.includes(":") ? `[${local}]` : local}:${env.PORT}`);
});
server.on("error", (error: NodeJS.ErrnoException) => {
  log.fatal(
    error.code === "EADDRINUSE"
      ? `Port ${env.PORT} is already in use: stop the other process or set PORT.`
      : `The server could not start: ${error.message}`,
  );
  log.flush(() => process.exit(1));
});

function shutDown(signal: string) {
  log.info(`${signal} received, closing the server`);
  operational.drain();
  server.close(() => void redis.close().finally(() => log.flush(() => process.exit(0))));
  // Keep-alive connections must not hold the process forever.
  setTimeout(() => process.exit(0), 5_000).unref();
  server.closeIdleConnections();
}
process.once("SIGTERM", () => shutDown("SIGTERM"));
process.once("SIGINT", () => shutDown("SIGINT"));
