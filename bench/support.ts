import { execFileSync } from "node:child_process";

import { projectRoot } from "../tests/support/app-server.ts";

/** What the benchmarks share: waiting for a server, and one load run pinned to core 1. */

export async function waitFor(url: string) {
  for (let i = 0; i < 600; i++) {
    try {
      await fetch(url);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error(`${url} did not come up`);
}

export interface LoadResult {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
}

/** autocannon (bench/load.mjs) on core 1 for `seconds`, with these request headers. */
export function load(url: string, seconds: number, headers: Record<string, string> = {}): LoadResult {
  const out = execFileSync(
    "taskset",
    [
      "-c",
      "1",
      process.execPath,
      "bench/load.mjs",
      url,
      String(seconds),
      ...Object.entries(headers).map(([k, v]) => `${k}=${v}`),
    ],
    { cwd: projectRoot, encoding: "utf8" },
  );
  return JSON.parse(out.trim().split("\n").at(-1) ?? "{}") as LoadResult;
}

/** Builds the site (what the benchmarks serve): `npm run build`, the server entry included. */
export function buildSite() {
  execFileSync("npm", ["run", "--silent", "build"], { cwd: projectRoot, stdio: "ignore" });
}
