/**
 * A/B of the cache HIT fast path between builds or settings, alternated so that a busy machine
 * slows every variant alike: `npx tsx bench/hit-ab.ts <name>=<root>[:LOG_LEVEL[:NODE]] ...`, each
 * root a directory holding a built site (`build/`, `node_modules`), NODE the Node.js binary that
 * runs it (default: the one running this script; e.g. the machine's Node 20 against the project's
 * Node 24, for a before/after of an upgrade). Every variant serves `/company`
 * from a stand-in CMS, pinned to core 0, the load (bench/load.mjs, 50 connections) on core 1;
 * `ROUNDS` rounds (default 5) of `BENCH_SECONDS` (default 5) per variant. Prints each variant's
 * median requests/s and p99, and its ratio to the first. Used for the request log's cost
 * (bench/README.md, "Request log").
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, openSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import getPort from "../tests/support/free-port.ts";

import { stopProcessGroup } from "../tests/support/app-server.ts";
import { StandInCms } from "../tests/support/stand-in-cms.ts";
import { load, waitFor, type LoadResult } from "./support.ts";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.ROUNDS ?? 5);

interface Variant {
  name: string;
  root: string;
  logLevel: string;
  node: string;
  version?: string;
  url?: string;
  child?: ChildProcess;
  runs: LoadResult[];
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main() {
  const variants: Variant[] = process.argv.slice(2).map((arg) => {
    const [name, rest] = arg.split(/=(.*)/s) as [string, string];
    const [root, logLevel = "info", node = process.execPath] = rest.split(":") as [string, string?, string?];
    return { name, root: path.resolve(root), logLevel, node, runs: [] };
  });
  if (variants.length < 2)
    throw new Error("usage: tsx bench/hit-ab.ts a=<root>[:level[:node]] b=<root>[:level[:node]] ...");
  const logDir = mkdtempSync(path.join(tmpdir(), "hit-ab-"));
  const cms = new StandInCms(await getPort());
  cms.setPage({ fullPath: "/company", title: "Company", paragraphs: 40 });
  await cms.start();
  try {
    for (const variant of variants) {
      const port = await getPort();
      variant.url = `http://127.0.0.1:${port}`;
      variant.child = spawn("taskset", ["-c", "0", variant.node, "build/server-entry.mjs"], {
        cwd: variant.root,
        env: {
          PATH: process.env.PATH,
          NODE_ENV: "production",
          PORT: String(port),
          HOST: "127.0.0.1",
          APP_PUBLIC_URL: variant.url,
          CMS_URL: cms.url,
          CMS_REST_READONLY_API_KEY: "bench-token-0123456789",
          SESSION_AUTH_SECRET: "bench-session-secret-0123456789-0123456789",
          CACHE_WARM_PAGES: "0",
          LOG_LEVEL: variant.logLevel,
        },
        // The log goes to a file (as a log collector's would be: always drained). Not a pipe read
        // here: load() blocks this process, and a full pipe would stall the server's writes.
        stdio: ["ignore", openSync(path.join(logDir, `${variant.name}.log`), "w"), "inherit"],
        detached: true,
      });
      variant.version = execFileSync(variant.node, ["--version"], { encoding: "utf8" }).trim();
      await waitFor(`${variant.url}/healthz`);
      await fetch(`${variant.url}/company`).then((response) => response.arrayBuffer());
    }
    for (let round = 0; round < ROUNDS; round++) {
      for (const variant of round % 2 ? [...variants].reverse() : variants) {
        variant.runs.push(load(`${variant.url}/company`, SECONDS));
      }
    }
  } finally {
    for (const variant of variants) if (variant.child) await stopProcessGroup(variant.child);
    await cms.stop();
  }
  const base = median(variants[0]!.runs.map((run) => run.requestsPerSecond));
  console.log(`\n${ROUNDS} rounds of ${SECONDS} s, alternated; medians (logs in ${logDir})\n`);
  console.log("| variant | Node | LOG_LEVEL | requests/s | p99 ms | vs first | runs (requests/s) |");
  console.log("|---|---|---|---:|---:|---:|---|");
  for (const variant of variants) {
    const rps = median(variant.runs.map((run) => run.requestsPerSecond));
    const p99 = median(variant.runs.map((run) => run.p99));
    const all = variant.runs.map((run) => Math.round(run.requestsPerSecond)).join(", ");
    console.log(
      `| ${variant.name} | ${variant.version} | ${variant.logLevel} | ${Math.round(rps)} | ${p99} | ${Math.round((rps / base) * 100)} % | ${all} |`,
    );
  }
}

await main();
