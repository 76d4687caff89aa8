/**
 * Load with churn (issue 7): `npm run bench:churn` (BENCH_SECONDS, default 60). Prints figures;
 * asserts nothing. The production site on core 0 against a stand-in CMS with 200 pages;
 * autocannon on core 1 sends a mix of page requests over all 200 paths, client-navigation
 * `.data` requests and signed-in account requests, while this process changes a page (or the
 * navbar) in the CMS and revalidates it every 300 ms. At the end every path revalidated during
 * the run must serve its latest content: a lost invalidation would show here.
 */
import { spawn } from "node:child_process";

import { projectRoot, stopProcessGroup } from "../tests/support/app-server.ts";
import { StandInCms } from "../tests/support/stand-in-cms.ts";
import { buildSite, waitFor } from "./support.ts";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const PATHS = 200;
const SECRET = "bench-revalidate-secret-0123456789";
const METRICS = "bench-metrics-secret-0123456789";
const PORT = 4320;
const base = `http://127.0.0.1:${PORT}`;

async function main() {
  buildSite();
  const cms = new StandInCms(4321);
  for (let i = 0; i < PATHS; i++) cms.setPage({ fullPath: `/p/${i}`, title: `Page ${i} v0`, paragraphs: 10 });
  cms.users.set("ann@example.com", { id: 1, password: "Right-password-1", blocked: false });
  await cms.start();
  const app = spawn("taskset", ["-c", "0", process.execPath, "build/server-entry.mjs"], {
    cwd: projectRoot,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: "production",
      PORT: String(PORT),
      HOST: "127.0.0.1",
      APP_PUBLIC_URL: base,
      CMS_URL: cms.url,
      CMS_REST_READONLY_API_KEY: "bench-token-0123456789",
      CMS_REVALIDATE_SECRET: SECRET,
      METRICS_SECRET: METRICS,
      SESSION_AUTH_SECRET: "bench-session-secret-0123456789-0123456789",
      AUTH_RATE_LIMIT_MAX: "1000000",
    },
    stdio: "ignore",
    detached: true,
  });
  try {
    await waitFor(`${base}/p/0`);
    const signIn = await fetch(`${base}/api/auth/sign-in-cms`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: base },
      body: JSON.stringify({ email: "ann@example.com", password: "Right-password-1" }),
    });
    const cookie = signIn.headers
      .getSetCookie()
      .map((value) => value.split(";")[0])
      .join("; ");

    // The mix: 40 page requests, 5 .data requests, 5 signed-in requests per 50.
    const mix = Array.from({ length: 50 }, (_, i) => {
      if (i % 10 === 9) return { path: "/account", headers: { cookie } };
      if (i % 10 === 4) return { path: `/p/${(i * 7) % PATHS}.data` };
      return { path: `/p/${(i * 13) % PATHS}` };
    });

    const latest = new Map<number, number>();
    let navbarVersion = 0;
    let revalidations = 0;
    let running = true;
    const churn = (async () => {
      let round = 0;
      while (running) {
        round++;
        const revalidate = (next: { fullPaths?: string[]; tags?: string[] }) =>
          fetch(`${base}/api/cms-revalidate`, {
            method: "POST",
            headers: { authorization: `Bearer ${SECRET}`, "content-type": "application/json" },
            body: JSON.stringify({ uid: "api::page.page", next }),
          });
        if (round % 5 === 0) {
          navbarVersion++;
          cms.navbar = [{ label: `Nav v${navbarVersion}`, url: "/" }];
          await revalidate({ tags: ["cms:api::navbar.navbar"] });
        } else {
          const page = Math.floor(Math.random() * PATHS);
          const version = (latest.get(page) ?? 0) + 1;
          cms.setPage({ fullPath: `/p/${page}`, title: `Page ${page} v${version}`, paragraphs: 10 });
          latest.set(page, version);
          await revalidate({ fullPaths: [`/p/${page}`] });
        }
        revalidations++;
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
    })();

    // Not execFileSync: the stand-in CMS and the churn live in this process and must keep running.
    const out = await new Promise<string>((resolve, reject) => {
      let stdout = "";
      const generator = spawn(
        "taskset",
        ["-c", "1", process.execPath, "bench/load-mixed.mjs", base, String(SECONDS), JSON.stringify(mix)],
        { cwd: projectRoot, stdio: ["ignore", "pipe", "inherit"] },
      );
      generator.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
      generator.on("exit", (code) =>
        code === 0 ? resolve(stdout) : reject(new Error(`load generator exited ${code}`)),
      );
    });
    running = false;
    await churn;
    const result = JSON.parse(out.trim().split("\n").at(-1) ?? "{}") as Record<string, number>;

    // Every revalidated path serves its latest version (after at most one STALE answer).
    let lost = 0;
    for (const [page, version] of latest) {
      let html = "";
      for (let attempt = 0; attempt < 50; attempt++) {
        const response = await fetch(`${base}/p/${page}`);
        html = await response.text();
        if (response.headers.get("x-cache") === "HIT" || response.headers.get("x-cache") === "MISS") break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      if (!html.includes(`Page ${page} v${version}<`) || !html.includes(`Nav v${navbarVersion}<`)) lost++;
    }
    const metrics = await (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS}` } })).text();
    const metric = (name: string) => Number(new RegExp(`^${name} (\\d+)$`, "m").exec(metrics)?.[1]);

    console.log(`Load with churn: ${SECONDS} s, 50 connections, ${PATHS} paths, a revalidation every 300 ms\n`);
    console.log(
      "| requests | requests/s | p50 ms | p99 ms | errors | non-2xx | revalidations | regenerations " +
        "| paths checked | lost invalidations |",
    );
    console.log("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    console.log(
      `| ${result.requests} | ${result.requestsPerSecond?.toFixed(0)} | ${result.p50} | ${result.p99} ` +
        `| ${result.errors} | ${result.non2xx} | ${revalidations} | ${metric("isr_cache_regenerations_total")} ` +
        `| ${latest.size} | ${lost} |`,
    );
  } finally {
    await stopProcessGroup(app);
    await cms.stop();
  }
}

await main();
