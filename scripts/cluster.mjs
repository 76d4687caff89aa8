#!/usr/bin/env node
// `npm run start:cluster [-- N] [-- --cms M]`: N instances of the production build (default 2)
// sharing one Redis, behind a small round-robin load balancer on PORT (default 4000, so it runs
// beside `npm run dev` or the quick start, whose site is on 3000). Redis is Debian's redis-server
// started here on REDIS_PORT (default 6390) unless REDIS_URL points at one.
//
// Without --cms, the CMS must be running (npm run dev starts it; or set CMS_URL,
// CMS_REST_READONLY_API_KEY and CMS_ACCOUNT_API_SECRET, the quick start's from .env.quickstart
// for its CMS). With --cms M, the CMS runs here too: M Strapi instances (`node cms/server.js`,
// development mode: the demo seed) on one PostgreSQL database, Debian's server started here on
// PG_PORT (default 6432) with its data in cms/.tmp/cluster-postgres (kept between runs), unless
// DATABASE_URL points at one; the instances listen on CMS_PORT+1.. and a balancer on CMS_PORT
// (default 1337) spreads the site's and the editors' requests over them (admin at
// http://localhost:1337/admin). They revalidate the site through its balancer.
//
// Needs `npm run build` first. For trying scaling out locally, not for production.
import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { startBalancer } from "./balancer.mjs";
import { startPostgres } from "./postgres.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const cmsFlag = args.indexOf("--cms");
const cmsCount = cmsFlag === -1 ? 0 : Number(args[cmsFlag + 1] ?? 2);
const siteArgs = cmsFlag === -1 ? args : args.filter((_, i) => i !== cmsFlag && i !== cmsFlag + 1);
const count = Number(siteArgs[0] ?? 2);
const port = Number(process.env.PORT ?? 4000);
if (!Number.isInteger(count) || count < 1 || !Number.isInteger(cmsCount) || cmsCount < 0) {
  console.error("Usage: npm run start:cluster [-- <site instances>] [-- --cms <CMS instances>]");
  process.exit(1);
}
const children = [];
const stops = [];
// The last started first: the sites, then the CMS instances (no request of a site's left in
// flight), then Redis and PostgreSQL.
const stopAll = async () => {
  setTimeout(() => process.exit(0), 20_000).unref();
  for (const child of [...children].reverse()) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  }
  for (const stop of stops) await stop();
  process.exit(0);
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

/** A secret kept in cms/.tmp (made on the first run), unless the environment gives it. */
function keptSecret(name, file) {
  if (process.env[name]) return process.env[name];
  const full = path.join(root, "cms/.tmp", file);
  const kept = existsSync(full) ? readFileSync(full, "utf8").trim() : "";
  if (kept.length >= 16) return kept;
  const made = randomBytes(32).toString("hex");
  mkdirSync(path.dirname(full), { recursive: true });
  writeFileSync(full, `${made}\n`, { mode: 0o600 });
  return made;
}

const cms = cmsCount > 0 ? await startCmsCluster(cmsCount) : null;

const tokenFile = cms?.tokenFile ?? path.join(root, "cms/.tmp/frontend-readonly-token");
// What `npm run dev` gave its CMS (scripts/dev.mjs): the CMS's /api/auth/* answers only with it.
const accountSecretFile = path.join(root, "cms/.tmp/account-api-secret");
const env = {
  ...process.env,
  NODE_ENV: "production",
  HOST: "127.0.0.1",
  REDIS_URL: redisUrl,
  APP_PUBLIC_URL: process.env.APP_PUBLIC_URL ?? `http://localhost:${port}`,
  CMS_URL: cms?.url ?? process.env.CMS_URL ?? "http://127.0.0.1:1337",
  CMS_REST_READONLY_API_KEY:
    process.env.CMS_REST_READONLY_API_KEY ?? (existsSync(tokenFile) ? readFileSync(tokenFile, "utf8").trim() : ""),
  CMS_ACCOUNT_API_SECRET:
    cms?.accountSecret ??
    process.env.CMS_ACCOUNT_API_SECRET ??
    (existsSync(accountSecretFile) ? readFileSync(accountSecretFile, "utf8").trim() : undefined),
  ...(cms ? { CMS_REVALIDATE_SECRET: cms.revalidateSecret } : {}),
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

await startBalancer({ port, backends });
console.log(`[cluster] ${count} site instances on ${backends.join(", ")}, load balancer at http://localhost:${port}`);

/**
 * PostgreSQL, `instances` Strapis on it and their balancer; resolves once every instance
 * answers and the seed's read-only token is written.
 */
async function startCmsCluster(instances) {
  const cmsPort = Number(process.env.CMS_PORT ?? 1337);
  let databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    const postgres = await startPostgres({
      port: Number(process.env.PG_PORT ?? 6432),
      dataDir: path.join(root, "cms/.tmp/cluster-postgres"),
      logFile: path.join(root, "cms/.tmp/cluster-postgres.log"),
    });
    stops.push(postgres.stop);
    databaseUrl = postgres.url;
    console.log(`[cluster] PostgreSQL at ${databaseUrl} (data in cms/.tmp/cluster-postgres)`);
  }
  // The instances share cms/.env: its secrets are made once, before they start.
  execFileSync(process.execPath, ["scripts/ensure-env.js"], { cwd: path.join(root, "cms"), stdio: "inherit" });
  const tokenFile = path.join(root, "cms/.tmp/cluster-readonly-token");
  const accountSecret = keptSecret("CMS_ACCOUNT_API_SECRET", "account-api-secret");
  const revalidateSecret = keptSecret("CMS_REVALIDATE_SECRET", "cluster-revalidate-secret");
  const ports = Array.from({ length: instances }, (_, index) => cmsPort + 1 + index);
  for (const instancePort of ports) {
    children.push(
      spawn(process.execPath, ["server.js"], {
        cwd: path.join(root, "cms"),
        env: {
          ...process.env,
          NODE_ENV: "development",
          HOST: "127.0.0.1",
          PORT: String(instancePort),
          DATABASE_CLIENT: "postgres",
          DATABASE_URL: databaseUrl,
          CMS_READONLY_TOKEN_FILE: tokenFile,
          CLIENT_URL: process.env.APP_PUBLIC_URL ?? `http://localhost:${port}`,
          CMS_REVALIDATE_SECRET: revalidateSecret,
          CMS_ACCOUNT_API_SECRET: accountSecret,
          // The admin panel needs `npm run build --prefix cms` first; without it, the API only.
          SERVE_ADMIN: existsSync(path.join(root, "cms/build/index.html")) ? "true" : "false",
        },
        stdio: ["ignore", "inherit", "inherit"],
      }),
    );
  }
  const balancer = await startBalancer({ port: cmsPort, backends: ports });
  const deadline = Date.now() + 5 * 60_000;
  for (const instancePort of ports) {
    for (;;) {
      const healthy = await fetch(`http://127.0.0.1:${instancePort}/_health`).then(
        (response) => response.status === 204,
        () => false,
      );
      if (healthy && existsSync(tokenFile)) break;
      if (Date.now() > deadline) throw new Error(`The CMS on ${instancePort} did not start within 5 minutes.`);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  }
  console.log(`[cluster] ${instances} CMS instances on ${ports.join(", ")}, load balancer at ${balancer.url}`);
  return { url: balancer.url, tokenFile, accountSecret, revalidateSecret };
}
