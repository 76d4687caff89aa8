#!/usr/bin/env node
// `npm run dev`: the embedded CMS (cms/, Strapi in develop mode) and the site with Vite HMR,
// together. The site starts once the CMS is healthy and its seed has written the read-only
// token the site's development configuration reads. With CMS_URL set, no CMS is started:
// the site talks to that one.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const cmsPort = process.env.CMS_PORT ?? "1337";
const cmsUrl = `http://127.0.0.1:${cmsPort}`;
const tokenFile = path.join(root, "cms/.tmp/frontend-readonly-token");
const children = [];
// The CMS started here answers its account routes (/api/auth/*) only to the site (docs/security.md,
// finding 24): both get one secret, the shell's or the one kept in cms/.tmp (made on the first run;
// `npm run start:cluster` reads it too).
const accountSecretFile = path.join(root, "cms/.tmp/account-api-secret");
function accountApiSecret() {
  const kept = existsSync(accountSecretFile) ? readFileSync(accountSecretFile, "utf8").trim() : "";
  if (kept.length >= 16) return kept;
  const made = randomBytes(32).toString("hex");
  mkdirSync(path.dirname(accountSecretFile), { recursive: true });
  writeFileSync(accountSecretFile, `${made}\n`, { mode: 0o600 });
  return made;
}
const shared =
  process.env.CMS_URL || process.env.CMS_ACCOUNT_API_SECRET ? {} : { CMS_ACCOUNT_API_SECRET: accountApiSecret() };

function start(name, command, args, options) {
  const child = spawn(command, args, { stdio: "inherit", ...options });
  children.push(child);
  child.on("exit", (code, signal) => {
    console.log(`[dev] ${name} stopped (${signal ?? `exit ${code}`}); stopping the rest`);
    stopAll(code ?? 1);
  });
  return child;
}

let stopping = false;
function stopAll(code) {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
  setTimeout(() => process.exit(code), 3_000).unref();
}
process.on("SIGINT", () => stopAll(0));
process.on("SIGTERM", () => stopAll(0));

async function waitForCms(deadline) {
  while (Date.now() < deadline && !stopping) {
    try {
      const response = await fetch(`${cmsUrl}/_health`);
      if (response.ok && existsSync(tokenFile)) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  if (!stopping) throw new Error(`The CMS did not become ready at ${cmsUrl} within 5 minutes.`);
}

if (!process.env.CMS_URL) {
  console.log(`[dev] starting the CMS at ${cmsUrl} (first start builds its admin panel: allow a minute)`);
  start("cms", "npm", ["run", "--silent", "develop"], {
    cwd: path.join(root, "cms"),
    env: { ...process.env, ...shared, PORT: cmsPort, NODE_ENV: "development" },
  });
  await waitForCms(Date.now() + 5 * 60_000);
  console.log(`[dev] CMS ready: admin at ${cmsUrl}/admin (see cms/README.md for the development login)`);
}

if (!stopping) {
  start("site", path.join(root, "node_modules/.bin/tsx"), ["--conditions=@cms-site/source", "server/index.ts"], {
    cwd: root,
    env: { CMS_URL: cmsUrl, ...process.env, ...shared, NODE_ENV: "development" },
  });
}
