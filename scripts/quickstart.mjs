#!/usr/bin/env node
// `npm run quickstart` (after scripts/install.sh), or `node scripts/quickstart.mjs` on later runs
// to skip the installation: the embedded CMS and a production build of the site, wired
// together the way they are deployed, so publishing in the CMS revalidates the site's page cache.
//
//  1. secrets shared by both sides: generated into .env.quickstart on the first run, reused after
//     (scripts/quickstart-env.mjs);
//  2. the CMS admin panel is built when cms/build is missing or older than its sources;
//  3. the CMS starts (development mode: demo seed, development admin login, cms/.env secrets),
//     told the site's URL (CLIENT_URL) and CMS_REVALIDATE_SECRET; meanwhile `npm run build`;
//  4. once the CMS answers and its seed has written the read-only token, the site starts with
//     NODE_ENV=production (page cache on), the CMS URL, that token and the same secret;
//  5. both up and the site's warm start over (it caches the published pages itself): the URLs,
//     the login and what a first request gets are printed. Ctrl-C stops both.
//
// PORT (site, default 3000) and CMS_PORT (default 1337) choose the ports.
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { connect } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { adminBuildIsCurrent } from "./admin-build-sources.mjs";
import {
  ensureQuickstartEnv,
  quickstartBanner,
  quickstartEnvironments,
  WARM_START_OVER,
  warmStartEnabled,
} from "./quickstart-env.mjs";
import { runOnSupportedNode } from "./supported-node.mjs";

// Started as `node scripts/quickstart.mjs` by the machine's Node 20: again on the project's Node 24.
await runOnSupportedNode(import.meta.url);

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const cmsRoot = path.join(root, "cms");
const sitePort = Number(process.env.PORT || 3000);
const cmsPort = Number(process.env.CMS_PORT || 1337);
const envFile = path.join(root, ".env.quickstart");
const tokenFile = path.resolve(cmsRoot, process.env.CMS_READONLY_TOKEN_FILE || ".tmp/frontend-readonly-token");
const log = (message) => console.log(`[quickstart] ${message}`);
/** How long the banner waits for the site's warm start (a few seconds for the demo's pages). */
const WARM_START_WAIT_MS = 60_000;

// --- processes -------------------------------------------------------------------------------

const children = new Set();
let stopping = false;
let exitCode = 0;

function stopAll(code) {
  if (stopping) return;
  stopping = true;
  exitCode = code;
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
  setTimeout(() => process.exit(exitCode), 5_000).unref();
  if (children.size === 0) process.exit(exitCode);
}
process.on("SIGINT", () => stopAll(0));
process.on("SIGTERM", () => stopAll(0));

/** A long-running process: when it ends, everything ends. `onOutput` reads its stdout, which is still shown. */
function startService(name, command, args, options, onOutput) {
  const child = spawn(command, args, { stdio: onOutput ? ["inherit", "pipe", "inherit"] : "inherit", ...options });
  child.stdout?.on("data", (chunk) => {
    process.stdout.write(chunk);
    onOutput(chunk.toString());
  });
  children.add(child);
  child.on("exit", (code, signal) => {
    children.delete(child);
    if (!stopping) log(`${name} stopped (${signal ?? `exit ${code}`}); stopping the rest`);
    stopAll(code || 1);
    if (children.size === 0) process.exit(exitCode);
  });
  return child;
}

/** A step that must succeed (a build). */
function run(name, command, args, options) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: "inherit", ...options });
    children.add(child);
    child.on("exit", (code, signal) => {
      children.delete(child);
      if (stopping && children.size === 0) process.exit(exitCode);
      if (code === 0) resolve();
      else reject(new Error(`${name} failed (${signal ?? `exit ${code}`})`));
    });
  });
}

function fail(message) {
  if (stopping) return;
  console.error(`[quickstart] ${message}`);
  stopAll(1);
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function portInUse(port) {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

async function waitFor(what, check, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (!stopping) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline)
      throw new Error(`${what} did not come up within ${Math.round(timeoutMs / 60_000)} minutes`);
    await sleep(1_000);
  }
}

// --- the admin panel build (same rule as tests/support/cms-server.ts) -------------------------

// --- main --------------------------------------------------------------------------------------

async function main() {
  for (const [name, port] of [
    ["the site", sitePort],
    ["the CMS", cmsPort],
  ]) {
    if (await portInUse(port)) {
      throw new Error(
        `port ${port} (${name}) is already in use: stop what runs there (npm run dev?) ` +
          "or choose other ports (PORT=3100 CMS_PORT=1338 npm run quickstart).",
      );
    }
  }

  const { values: fileValues, generated } = ensureQuickstartEnv(envFile);
  log(
    generated.length > 0
      ? `generated ${generated.join(", ")} into .env.quickstart (reused on later runs)`
      : "secrets read from .env.quickstart",
  );
  const env = (token) =>
    quickstartEnvironments({ shell: process.env, fileValues, sitePort, cmsPort, readonlyToken: token });
  const { siteUrl, cmsUrl, cms: cmsEnv } = env("");

  if (!adminBuildIsCurrent(cmsRoot)) {
    log("building the CMS admin panel (cms/build; first run or changed sources: a minute or two)");
    await run("the CMS admin build", path.join(cmsRoot, "node_modules/.bin/strapi"), ["build"], {
      cwd: cmsRoot,
      env: { ...cmsEnv, STRAPI_TELEMETRY_DISABLED: "true" },
    });
  }
  if (stopping) return;

  log(`starting the CMS at ${cmsUrl} (it tells ${siteUrl}/api/cms-revalidate about every publish)`);
  startService("the CMS", process.execPath, ["server.js"], { cwd: cmsRoot, env: cmsEnv });

  log("building the site for production (npm run build) while the CMS starts");
  await run("npm run build", "npm", ["run", "--silent", "build"], {
    cwd: root,
    env: { ...process.env, NODE_ENV: "production" },
  });
  if (stopping) return;

  // /_health answers once bootstrap (and with it the seed, which writes the token) is done.
  await waitFor("The CMS", async () => (await fetch(`${cmsUrl}/_health`)).ok && existsSync(tokenFile), 5 * 60_000);
  if (stopping) return;
  const token = readFileSync(tokenFile, "utf8").trim();

  log(`starting the site at ${siteUrl} (NODE_ENV=production: page cache on)`);
  const siteEnv = env(token).site;
  let warmStartOver;
  const warmStartSeen = new Promise((resolve) => (warmStartOver = resolve));
  let recentOutput = "";
  // What `npm start` runs: the built server (build/server-entry.mjs), plain Node.
  startService("the site", process.execPath, ["build/server-entry.mjs"], { cwd: root, env: siteEnv }, (text) => {
    recentOutput = (recentOutput + text).slice(-2_000);
    if (WARM_START_OVER.test(recentOutput)) warmStartOver();
  });
  // A TCP check, not a page request: the site warms its cache itself as it starts.
  await waitFor("The site", () => portInUse(sitePort), 2 * 60_000);
  if (stopping) return;
  // The banner says what the first curl of a page gets: once the warm start is over, a HIT.
  const warmStart = warmStartEnabled(siteEnv)
    ? await Promise.race([warmStartSeen.then(() => "done"), sleep(WARM_START_WAIT_MS).then(() => "running")])
    : "off";
  if (stopping) return;

  // What the seed creates when the database has no admin yet (cms/src/seed/access.js).
  const email = cmsEnv.CMS_ADMIN_EMAIL || "admin@example.com";
  const password = cmsEnv.CMS_ADMIN_PASSWORD || "Admin12345";
  console.log(quickstartBanner({ siteUrl, cmsUrl, email, password, warmStart }));
}

main().catch((error) => fail(error.message));
