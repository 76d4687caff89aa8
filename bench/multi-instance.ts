/**
 * Several-instances benchmark (issue 6): `npm run bench:redis`. Prints figures; asserts nothing.
 * - HIT throughput of an instance with the Redis store (and its local layer) against one
 *   with the in-process store only, same page, same load generator (autocannon, 50
 *   connections), server on core 0 and load generator on core 1;
 * - time from a revalidation received by instance A to instance B serving STALE (p50, p99).
 */
import { spawn, type ChildProcess } from "node:child_process";

import { projectRoot, stopProcessGroup } from "../tests/support/app-server.ts";
import { buildSite, load, waitFor } from "./support.ts";
import { RedisServer } from "../tests/support/redis-server.ts";
import { StandInCms } from "../tests/support/stand-in-cms.ts";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 200);
const SECRET = "bench-revalidate-secret-0123456789";

function instance(port: number, cmsUrl: string, redisUrl?: string): ChildProcess {
  return spawn("taskset", ["-c", "0", process.execPath, "build/server-entry.mjs"], {
    cwd: projectRoot,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      APP_PUBLIC_URL: `http://127.0.0.1:${port}`,
      CMS_URL: cmsUrl,
      CMS_REST_READONLY_API_KEY: "bench-token-0123456789",
      CMS_REVALIDATE_SECRET: SECRET,
      SESSION_AUTH_SECRET: "bench-session-secret-0123456789-0123456789",
      ...(redisUrl ? { REDIS_URL: redisUrl } : {}),
    },
    stdio: "ignore",
    detached: true,
  });
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

async function main() {
  buildSite();
  const redis = new RedisServer(4401);
  const cms = new StandInCms(4402);
  cms.setPage({ fullPath: "/company", title: "Company", paragraphs: 40 });
  cms.setPage({ fullPath: "/jobs", title: "Jobs" });
  await redis.start();
  await cms.start();
  const a = instance(4403, cms.url, redis.url);
  const b = instance(4404, cms.url, redis.url);
  const local = instance(4405, cms.url);
  try {
    for (const port of [4403, 4404, 4405]) await waitFor(`http://127.0.0.1:${port}/company`);
    await fetch("http://127.0.0.1:4403/company");
    await fetch("http://127.0.0.1:4405/company");

    console.log(`HIT throughput, /company, ${SECONDS} s per run, 50 connections\n`);
    console.log("| store | requests/s | p50 ms | p99 ms | errors |");
    console.log("|---|---:|---:|---:|---:|");
    for (const [name, port] of [
      ["Redis (with local layer)", 4403],
      ["in-process only", 4405],
    ] as const) {
      const result = load(`http://127.0.0.1:${port}/company`, SECONDS);
      console.log(
        `| ${name} | ${result.requestsPerSecond.toFixed(0)} | ${result.p50} | ${result.p99} | ${result.errors} |`,
      );
    }

    // Revalidation on A → STALE on B.
    const samples: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // Make B's entry fresh again first.
      for (let i = 0; i < 200; i++) {
        const response = await fetch("http://127.0.0.1:4404/jobs");
        await response.arrayBuffer();
        if (response.headers.get("x-cache") === "HIT") break;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      const start = performance.now();
      await fetch("http://127.0.0.1:4403/api/cms-revalidate", {
        method: "POST",
        headers: { authorization: `Bearer ${SECRET}`, "content-type": "application/json" },
        body: JSON.stringify({ uid: "api::page.page", next: { fullPaths: ["/jobs"] } }),
      });
      for (;;) {
        const response = await fetch("http://127.0.0.1:4404/jobs");
        await response.arrayBuffer();
        if (response.headers.get("x-cache") !== "HIT") break;
      }
      samples.push(performance.now() - start);
    }
    samples.sort((x, y) => x - y);
    console.log(
      `\nRevalidation on A to STALE on B, ${ROUNDS} rounds (includes the revalidation request itself): ` +
        `p50 ${percentile(samples, 50).toFixed(2)} ms, p99 ${percentile(samples, 99).toFixed(2)} ms`,
    );
  } finally {
    for (const child of [a, b, local]) await stopProcessGroup(child);
    await cms.stop();
    await redis.stop();
  }
}

await main();
