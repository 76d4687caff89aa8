"use strict";

const { spawn } = require("node:child_process");
const { once } = require("node:events");
const { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync } = require("node:fs");
const { createServer } = require("node:http");
const { tmpdir } = require("node:os");
const path = require("node:path");

/**
 * The real CMS for the node tests that need one: `node server.js` (what `npm start` runs) in cms/,
 * on a fresh SQLite database in a temporary folder (its first start seeds the demo site, the
 * development admin and the read-only token), no admin UI, fixed test secrets. What the CMS sends
 * to the site goes to `receiver()`, a node:http stand-in of the site's POST /api/cms-revalidate.
 * Used by cms/tests/plugins/site-cache/server/services/revalidation/declared-types.test.js.
 * A start takes a few seconds (SQLite, no admin build).
 */

const CMS_ROOT = path.resolve(__dirname, "../..");
const START_TIMEOUT_MS = 180_000;
// The same fixed secrets as the site's tests (tests/support/cms-server.ts reads this file too).
const SECRETS = require("./test-secrets.json");

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Asks `read` until `found` accepts its value (a condition the test observes, never "long enough"). */
async function until(what, read, found, { timeoutMs = 15_000, intervalMs = 50 } = {}) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (found(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what} (last: ${JSON.stringify(value)})`);
    await pause(intervalMs);
  }
}

/** The site's stand-in: records every request's url, authorization and JSON body; answers 200. */
async function receiver() {
  const requests = [];
  const server = createServer((req, res) => {
    let text = "";
    req.on("data", (chunk) => (text += chunk));
    req.on("end", () => {
      requests.push({ url: req.url, authorization: req.headers.authorization, body: JSON.parse(text || "{}") });
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ revalidated: true }));
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    requests,
    async stop() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

async function freePort() {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function healthy(url) {
  try {
    return (await fetch(`${url}/_health`, { signal: AbortSignal.timeout(2_000) })).status === 204;
  } catch {
    return false;
  }
}

/**
 * Starts the CMS (env: extra environment; dir: the folder of an earlier start stopped with
 * `keep`, to start again on its database). Resolves once it answers /_health (and, with
 * `waitForToken`, the default, has written the read-only token's key): `{ url, dir, token, log(),
 * stop({ keep }) }`; stop removes the folder unless keep.
 */
async function startStrapi({ env = {}, dir: reused, waitForToken = true } = {}) {
  const dir = reused ?? mkdtempSync(path.join(tmpdir(), "cms-node-test-"));
  const dbFile = path.join(dir, "cms.db");
  const tokenFile = `${dbFile}.readonly-token`;
  const logFile = `${dbFile}.log`;
  mkdirSync(path.join(dir, "public", "uploads"), { recursive: true });
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const logFd = openSync(logFile, "a");
  const child = spawn(process.execPath, ["server.js"], {
    cwd: CMS_ROOT,
    env: {
      ...process.env,
      ...SECRETS,
      NODE_ENV: "development",
      HOST: "127.0.0.1",
      PORT: String(port),
      DATABASE_CLIENT: "sqlite",
      DATABASE_FILENAME: dbFile,
      CMS_READONLY_TOKEN_FILE: tokenFile,
      CMS_PUBLIC_DIR: path.join(dir, "public"),
      SERVE_ADMIN: "false",
      STRAPI_TELEMETRY_DISABLED: "true",
      STRAPI_DISABLE_UPDATE_NOTIFICATION: "true",
      BROWSER: "none",
      FORCE_COLOR: "0",
      ...env,
    },
    stdio: ["ignore", logFd, logFd],
    detached: true,
  });
  closeSync(logFd);
  const exited = once(child, "exit");
  const log = () => (existsSync(logFile) ? readFileSync(logFile, "utf8") : "");
  const stop = async ({ keep = false } = {}) => {
    if (child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {
        // already gone
      }
      const timer = setTimeout(() => {
        try {
          process.kill(-child.pid, "SIGKILL");
        } catch {
          // already gone
        }
      }, 10_000);
      await exited;
      clearTimeout(timer);
    }
    if (!keep) rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      const text = log();
      await stop();
      throw new Error(`Strapi exited during its start:\n${text.split("\n").slice(-60).join("\n")}`);
    }
    if (await healthy(url)) {
      const token = existsSync(tokenFile) ? readFileSync(tokenFile, "utf8").trim() : "";
      if (token || !waitForToken) return { url, dir, token, log, stop };
    }
    if (Date.now() > deadline) {
      const text = log();
      await stop();
      throw new Error(`no healthy CMS after ${START_TIMEOUT_MS / 1000} s:\n${text.split("\n").slice(-60).join("\n")}`);
    }
    await pause(250);
  }
}

module.exports = { startStrapi, receiver, until };
