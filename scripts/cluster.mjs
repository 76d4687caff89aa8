#!/usr/bin/env node
// `npm run start:cluster [-- N]`: N instances of the production build (default 2) sharing one
// Redis, behind a small round-robin load balancer on PORT (default 4000, so it runs beside
// `npm run dev` or the quick start, whose site is on 3000). Redis is Debian's
// redis-server started here on REDIS_PORT (default 6390) unless REDIS_URL points at one.
// The CMS must be running (npm run dev starts it; or set CMS_URL, CMS_REST_READONLY_API_KEY and
// CMS_ACCOUNT_API_SECRET, the quick start's from .env.quickstart for its CMS).
// Needs `npm run build` first. For trying scaling out locally, not for production.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { createServer, request } from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const count = Number(process.argv[2] ?? 2);
const port = Number(process.env.PORT ?? 4000);
const children = [];
const stopAll = () => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
  setTimeout(() => process.exit(0), 2_000).unref();
};
process.on("SIGINT", stopAll);
process.on("SIGTERM", stopAll);

if (!existsSync(path.join(root, "build/server-entry.mjs"))) {
  console.error("No production build: run `npm run build` first.");
  process.exit(1);
}

let redisUrl = process.env.REDIS_URL;
if (!redisUrl) {
  const redisPort = process.env.REDIS_PORT ?? "6390";
  children.push(
    spawn(
      "redis-server",
      [
        "--port",
        redisPort,
        "--bind",
        "127.0.0.1",
        "--save",
        "",
        "--maxmemory",
        "256mb",
        "--maxmemory-policy",
        "allkeys-lru",
      ],
      { stdio: "ignore" },
    ),
  );
  redisUrl = `redis://127.0.0.1:${redisPort}`;
  console.log(`[cluster] Redis at ${redisUrl}`);
}

const tokenFile = path.join(root, "cms/.tmp/frontend-readonly-token");
// What `npm run dev` gave its CMS (scripts/dev.mjs): the CMS's /api/auth/* answers only with it.
const accountSecretFile = path.join(root, "cms/.tmp/account-api-secret");
const env = {
  ...process.env,
  NODE_ENV: "production",
  HOST: "127.0.0.1",
  REDIS_URL: redisUrl,
  APP_PUBLIC_URL: process.env.APP_PUBLIC_URL ?? `http://localhost:${port}`,
  CMS_URL: process.env.CMS_URL ?? "http://127.0.0.1:1337",
  CMS_REST_READONLY_API_KEY:
    process.env.CMS_REST_READONLY_API_KEY ?? (existsSync(tokenFile) ? readFileSync(tokenFile, "utf8").trim() : ""),
  CMS_ACCOUNT_API_SECRET:
    process.env.CMS_ACCOUNT_API_SECRET ??
    (existsSync(accountSecretFile) ? readFileSync(accountSecretFile, "utf8").trim() : undefined),
  // One secret for all instances, so a session made by one is read by the others.
  SESSION_AUTH_SECRET: process.env.SESSION_AUTH_SECRET ?? randomBytes(32).toString("base64"),
  TRUST_PROXY: "loopback",
};

const backends = Array.from({ length: count }, (_, index) => port + 1 + index);
for (const backendPort of backends) {
  // What `npm start` runs: the built server, plain Node.
  const child = spawn(process.execPath, ["build/server-entry.mjs"], {
    cwd: root,
    env: { ...env, PORT: String(backendPort) },
    stdio: ["ignore", "inherit", "inherit"],
  });
  children.push(child);
}

let next = 0;
createServer((req, res) => {
  const backendPort = backends[next++ % backends.length];
  const upstream = request(
    {
      host: "127.0.0.1",
      port: backendPort,
      method: req.method,
      path: req.url,
      headers: { ...req.headers, "x-forwarded-for": req.socket.remoteAddress },
    },
    (response) => {
      res.writeHead(response.statusCode ?? 502, { ...response.headers, "x-instance": String(backendPort) });
      response.pipe(res);
    },
  );
  upstream.on("error", () => {
    if (!res.headersSent) res.writeHead(502).end("instance unavailable");
  });
  req.pipe(upstream);
}).listen(port, "127.0.0.1", () => {
  console.log(`[cluster] ${count} instances on ${backends.join(", ")}, load balancer at http://localhost:${port}`);
});
