/**
 * The site's uncached render against a plain React Router SSR server rendering the same page from
 * the same CMS data (issue 21, point 5): `npm run bench:render -- [<name>=<root> ...]`.
 *
 * Builds the site (`npm run build`, unless BENCH_NO_BUILD=1) and the plain app
 * (bench/plain-react-router), starts one stand-in CMS (tests/support/stand-in-cms.ts) with a
 * ~30 KB page, the plain server and the site (this checkout, or each `<root>` given: a directory
 * holding a built site and `node_modules`, to compare builds), each pinned to core 0, and
 * measures `/company` with autocannon on core 1 (bench/load.mjs, 50 connections), `ROUNDS`
 * rounds (default 5) of `BENCH_SECONDS` (default 5), alternating the servers so a busy machine
 * slows them alike. The site is asked with an `Authorization` header, which bypasses its page
 * cache (server/page-cache-policy.ts, bypassesPageCache): every request is rendered. Its CMS data
 * cache stays on, as in production. `CPU_PROF=<dir>` writes a CPU profile of each server
 * (node --cpu-prof) to that directory; `node bench/cpu-profile-top.mjs <file>` summarises one.
 */
import { execFile, execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, openSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import getPort from "../tests/support/free-port.ts";

import { projectRoot, stopProcessGroup } from "../tests/support/app-server.ts";
import { buildSite, waitFor, type LoadResult } from "./support.ts";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const CMS_TOKEN = "bench-token-0123456789";
const plainRoot = path.join(projectRoot, "bench/plain-react-router");

interface Server {
  name: string;
  url?: string;
  child?: ChildProcess;
  runs: LoadResult[];
  /** The server's CPU time per request in each run, ms: what a busy machine does not distort. */
  cpuPerRequest: number[];
  bytes?: number;
}

/** A process's CPU time so far (user + system), ms, from /proc (Linux). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/**
 * bench/load.mjs on core 1, awaited: unlike support.ts's load(), this process keeps answering as
 * the stand-in CMS meanwhile (the renders ask it; the HIT benchmarks never do).
 */
function load(url: string, seconds: number, headers: Record<string, string>): Promise<LoadResult> {
  const args = ["-c", "1", process.execPath, "bench/load.mjs", url, String(seconds)];
  args.push(...Object.entries(headers).map(([name, value]) => `${name}=${value}`));
  return new Promise((resolve, reject) =>
    execFile("taskset", args, { cwd: projectRoot, encoding: "utf8" }, (error, out) =>
      error ? reject(error) : resolve(JSON.parse(out.trim().split("\n").at(-1) ?? "{}") as LoadResult),
    ),
  );
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

function pinned(core: number, args: string[], cwd: string, env: Record<string, string>, log: string): ChildProcess {
  return spawn("taskset", ["-c", String(core), process.execPath, ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? "", NODE_ENV: "production", ...env },
    stdio: ["ignore", openSync(log, "w"), "inherit"],
    detached: true,
  });
}

async function main() {
  const sites = process.argv.slice(2).map((arg) => {
    const [name, root] = arg.split(/=(.*)/s) as [string, string];
    return { name, root: path.resolve(root) };
  });
  if (sites.length === 0) sites.push({ name: "site", root: projectRoot });
  if (process.env.BENCH_NO_BUILD !== "1") buildSite();
  execFileSync("npx", ["react-router", "build"], { cwd: plainRoot, stdio: "ignore" });

  const logDir = mkdtempSync(path.join(tmpdir(), "render-vs-plain-"));
  // The CMS on the load generator's core: the servers' core renders and nothing else.
  const cmsUrl = `http://127.0.0.1:${await getPort()}`;
  const tsx = path.join(projectRoot, "node_modules/tsx/dist/cli.mjs");
  const cms = pinned(
    1,
    [tsx, "bench/stand-in-cms-server.ts", new URL(cmsUrl).port],
    projectRoot,
    {},
    path.join(logDir, "cms.log"),
  );
  await waitFor(`${cmsUrl}/api/navbar`);
  const servers: Server[] = [
    { name: "plain React Router", runs: [], cpuPerRequest: [] },
    ...sites.map(({ name }) => ({ name, runs: [], cpuPerRequest: [] })),
  ];
  try {
    for (const [index, server] of servers.entries()) {
      const port = await getPort();
      server.url = `http://127.0.0.1:${port}`;
      const log = path.join(logDir, `${index}.log`);
      const env = { PORT: String(port), CMS_URL: cmsUrl, CMS_REST_READONLY_API_KEY: CMS_TOKEN };
      const site = sites[index - 1];
      const profile = process.env.CPU_PROF
        ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(process.env.CPU_PROF)}`]
        : [];
      server.child = site
        ? pinned(
            0,
            [...profile, "build/server-entry.mjs"],
            site.root,
            {
              ...env,
              HOST: "127.0.0.1",
              APP_PUBLIC_URL: server.url,
              SESSION_AUTH_SECRET: "bench-session-secret-0123456789-0123456789",
              CACHE_WARM_PAGES: "0",
            },
            log,
          )
        : pinned(0, [...profile, "server.mjs"], plainRoot, env, log);
      await waitFor(`${server.url}/company`);
      const page = await fetch(`${server.url}/company`, { headers: { authorization: "Bearer bench" } });
      if (page.status !== 200) throw new Error(`${server.name}: /company answered ${page.status}`);
      server.bytes = (await page.arrayBuffer()).byteLength;
    }
    for (let round = 0; round < ROUNDS; round++) {
      for (const server of round % 2 ? [...servers].reverse() : servers) {
        const pid = server.child!.pid!;
        const cpuBefore = cpuMs(pid);
        const run = await load(`${server.url}/company`, SECONDS, { authorization: "Bearer bench" });
        server.runs.push(run);
        server.cpuPerRequest.push((cpuMs(pid) - cpuBefore) / (run.requestsPerSecond * SECONDS));
      }
    }
  } finally {
    for (const server of servers) if (server.child) await stopProcessGroup(server.child);
    await stopProcessGroup(cms);
  }
  const base = median(servers[0]!.runs.map((run) => run.requestsPerSecond));
  console.log(`\n${ROUNDS} rounds of ${SECONDS} s, alternated; medians (logs in ${logDir})\n`);
  const baseCpu = median(servers[0]!.cpuPerRequest);
  console.log(
    "| server | page bytes | requests/s | p50 ms | p99 ms | vs plain | CPU ms/request | vs plain | errors | runs (requests/s) |",
  );
  console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|");
  for (const server of servers) {
    const rps = median(server.runs.map((run) => run.requestsPerSecond));
    const p50 = median(server.runs.map((run) => run.p50));
    const p99 = median(server.runs.map((run) => run.p99));
    const errors = server.runs.reduce((sum, run) => sum + run.errors, 0);
    const cpu = median(server.cpuPerRequest);
    const all = server.runs.map((run) => Math.round(run.requestsPerSecond)).join(", ");
    console.log(
      `| ${server.name} | ${server.bytes} | ${Math.round(rps)} | ${p50} | ${p99} | ${Math.round((rps / base) * 100)} % | ${cpu.toFixed(2)} | ${Math.round((cpu / baseCpu) * 100)} % | ${errors} | ${all} |`,
    );
  }
}

await main();
