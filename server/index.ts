import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";

import compression from "compression";
import express, { type RequestHandler } from "express";

import { EnvError, parseEnv, type Env } from "../app/lib/env.server.ts";
import { operationalRoutes } from "./operational-routes.ts";
import { securityHeaders } from "./security-headers.ts";
import { trustProxySetting } from "./web-http.ts";

/**
 * The Express host. Development: Vite's middleware (HMR) and the app loaded through
 * Vite on every request. Production: the built client with long-lived caching for
 * hashed assets, and the built request handler (server/app.ts) from build/server.
 */

function loadEnv(): Env {
  try {
    return parseEnv(process.env);
  } catch (error) {
    if (!(error instanceof EnvError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}

const env = loadEnv();
// The project root: this file runs as server/index.ts (tsx, development) or bundled as
// build/server-entry.mjs (`npm run build`, production); both sit one level below the root.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const host = express();
/** Production: cached pages are answered before Express (see server/cache/response-cache.ts). */
let serveCachedPage: (req: IncomingMessage, res: ServerResponse) => boolean = () => false;
/** Production: the cache is warmed in the background once the server listens. */
let warmCache: (selfUrl: string) => void = () => {};
host.disable("x-powered-by");
host.set("trust proxy", trustProxySetting(env.TRUST_PROXY));
host.use(securityHeaders(env));
// /healthz and /readyz, before static files, Vite, the page cache and the app: they depend on
// none of those, are never cached or rate-limited, and answer alike in development and
// production (server/operational-routes.ts says why here and not beside /metrics in app.ts).
const operational = operationalRoutes({ cmsUrl: env.CMS_URL, redisUrl: env.REDIS_URL });
host.use(operational.router);
host.use(compression());

if (env.NODE_ENV === "production") {
  const client = path.join(root, "build/client");
  // File names under assets/ carry a content hash: cache them for a year.
  host.use("/assets", express.static(path.join(client, "assets"), { immutable: true, maxAge: "1y", index: false }));
  host.use(express.static(client, { maxAge: "1h", index: false }));
  const build = (await import(path.join(root, "build/server/index.js"))) as {
    app: RequestHandler;
    serveCachedPage: (req: IncomingMessage, res: ServerResponse) => boolean;
    warmCache: (selfUrl: string) => void;
  };
  serveCachedPage = build.serveCachedPage;
  warmCache = build.warmCache;
  host.use(build.app);
} else {
  const vite = await import("vite");
  const viteDevServer = await vite.createServer({ root, server: { middlewareMode: true } });
  host.use(viteDevServer.middlewares);
  host.use(async (req, res, next) => {
    try {
      const source = (await viteDevServer.ssrLoadModule("./server/app.ts")) as { app: RequestHandler };
      await source.app(req, res, next);
    } catch (error) {
      if (error instanceof Error) viteDevServer.ssrFixStacktrace(error);
      next(error);
    }
  });
}

const server = createServer((req, res) => {
  if (!serveCachedPage(req, res)) host(req, res);
});
// Longer than the idle timeout of common load balancers (60 s), so they close first.
server.keepAliveTimeout = 65_000;
server.headersTimeout = 66_000;
server.listen(env.PORT, env.HOST, () => {
  console.log(`Site ready at ${env.APP_PUBLIC_URL} (listening on ${env.HOST}:${env.PORT}, ${env.NODE_ENV})`);
  const local = ["0.0.0.0", "::"].includes(env.HOST) ? "127.0.0.1" : env.HOST;
  warmCache(`http://${local.includes(":") ? `[${local}]` : local}:${env.PORT}`);
});
server.on("error", (error: NodeJS.ErrnoException) => {
  console.error(
    error.code === "EADDRINUSE"
      ? `Port ${env.PORT} is already in use: stop the other process or set PORT.`
      : `The server could not start: ${error.message}`,
  );
  process.exit(1);
});

function shutDown(signal: string) {
  console.log(`${signal} received, closing the server`);
  operational.drain();
  server.close(() => process.exit(0));
  // Keep-alive connections must not hold the process forever.
  setTimeout(() => process.exit(0), 5_000).unref();
  server.closeIdleConnections();
}
process.once("SIGTERM", () => shutDown("SIGTERM"));
process.once("SIGINT", () => shutDown("SIGINT"));
