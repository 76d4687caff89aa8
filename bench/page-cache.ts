/**
 * Page cache benchmark (issue 3): `npm run bench:cache`. Prints figures; asserts nothing.
 *
 * Side by side, same page, same load generator (autocannon, 50 connections), the server
 * pinned to core 0 and the load generator to core 1 (taskset):
 *   (a) a cache HIT: plain, with analytics cookies, for a signed-in visitor (session cookie),
 *   and with a distinct utm_source on every request; (b) the same page rendered every time
 *   (a request with Authorization bypasses the cache); (c) plain node:http writing the same
 *   bytes from memory;
 * each without and with `accept-encoding: br, gzip`.
 * Then: the time to invalidate a tag with 100,000 entries cached, and the number of
 * regenerations started by 500 concurrent requests on one stale key.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliCompressSync } from "node:zlib";

import { Invalidations, IsrCache, MemoryStore } from "@cms-site/page-cache";
import { projectRoot, stopProcessGroup } from "../tests/support/app-server.ts";
import { buildSite, load, waitFor } from "./support.ts";
import { StandInCms } from "../tests/support/stand-in-cms.ts";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const APP_PORT = 4310;
const PLAIN_PORT = 4311;
const SECRET = "bench-revalidate-secret-0123456789";
const METRICS = "bench-metrics-secret-0123456789";
const ANALYTICS = "_ga=GA1.1.1234567890.1700000000; _gid=GA1.1.987654321.1700000000; cookie_consent=analytics";
const SIGNED_IN = `better-auth.session_token=bench-token.signature; ${ANALYTICS}`;

function pinned(core: number, command: string, args: string[], env: NodeJS.ProcessEnv = process.env): ChildProcess {
  return spawn("taskset", ["-c", String(core), command, ...args], {
    cwd: projectRoot,
    env,
    stdio: ["ignore", "inherit", "inherit"],
    detached: true,
  });
}

async function main() {
  buildSite();
  const cms = new StandInCms(4312);
  cms.setPage({ fullPath: "/company", title: "Company", paragraphs: 40 });
  cms.setPage({ fullPath: "/jobs", title: "Jobs" });
  await cms.start();
  const app = pinned(0, process.execPath, ["build/server-entry.mjs"], {
    PATH: process.env.PATH,
    NODE_ENV: "production",
    PORT: String(APP_PORT),
    HOST: "127.0.0.1",
    APP_PUBLIC_URL: `http://127.0.0.1:${APP_PORT}`,
    CMS_URL: cms.url,
    CMS_REST_READONLY_API_KEY: "bench-token-0123456789",
    CMS_REVALIDATE_SECRET: SECRET,
    METRICS_SECRET: METRICS,
    SESSION_AUTH_SECRET: "bench-session-secret-0123456789-0123456789",
  });
  const appUrl = `http://127.0.0.1:${APP_PORT}`;
  let plain: ChildProcess | undefined;
  try {
    await waitFor(`${appUrl}/jobs`);
    const html = await (await fetch(`${appUrl}/company`)).text();
    const dir = mkdtempSync(path.join(tmpdir(), "bench-"));
    writeFileSync(path.join(dir, "body.html"), html);
    writeFileSync(path.join(dir, "body.br"), brotliCompressSync(html));
    plain = pinned(0, process.execPath, [
      "bench/plain-server.mjs",
      String(PLAIN_PORT),
      path.join(dir, "body.html"),
      path.join(dir, "body.br"),
    ]);
    await waitFor(`http://127.0.0.1:${PLAIN_PORT}/`);

    console.log(`Page: /company, ${html.length} bytes of HTML; ${SECONDS} s per run, 50 connections\n`);
    console.log("| case | encoding | requests/s | p50 ms | p99 ms | errors |");
    console.log("|---|---|---:|---:|---:|---:|");
    const results: Record<string, number> = {};
    for (const encoding of ["identity", "br, gzip"]) {
      const enc: Record<string, string> = encoding === "identity" ? {} : { "accept-encoding": encoding };
      // Warm the signed-in variant and the page.
      await fetch(`${appUrl}/company`, { headers: { cookie: SIGNED_IN } });
      for (const [name, url, headers] of [
        ["(a) cache HIT", `${appUrl}/company`, enc],
        ["(a) HIT, analytics cookies", `${appUrl}/company`, { ...enc, cookie: ANALYTICS }],
        ["(a) HIT, signed-in visitor", `${appUrl}/company`, { ...enc, cookie: SIGNED_IN }],
        ["(a) HIT, distinct utm_source", `${appUrl}/company?utm_medium=mail&utm_source=c{n}`, enc],
        ["(b) uncached render", `${appUrl}/company`, { ...enc, authorization: "Bearer bench" }],
        ["(c) plain node:http", `http://127.0.0.1:${PLAIN_PORT}/`, enc],
      ] as const) {
        const result = load(url, SECONDS, headers);
        results[`${name}|${encoding}`] = result.requestsPerSecond;
        console.log(
          `| ${name} | ${encoding} | ${result.requestsPerSecond.toFixed(0)} | ${result.p50} | ${result.p99} ` +
            `| ${result.errors} |`,
        );
      }
      const plainHit = results[`(a) cache HIT|${encoding}`]!;
      const ratio = plainHit / results[`(c) plain node:http|${encoding}`]!;
      console.log(`| HIT / ceiling | ${encoding} | ${(ratio * 100).toFixed(0)} % | | | |`);
      for (const variant of ["analytics cookies", "signed-in visitor", "distinct utm_source"]) {
        const share = results[`(a) HIT, ${variant}|${encoding}`]! / plainHit;
        console.log(`| HIT, ${variant} / plain HIT | ${encoding} | ${(share * 100).toFixed(0)} % | | | |`);
      }
    }

    // 500 concurrent requests on one stale key: how many regenerations?
    const metric = async (name: string) => {
      const text = await (await fetch(`${appUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS}` } })).text();
      return Number(new RegExp(`^${name} (\\d+)$`, "m").exec(text)?.[1]);
    };
    // After long load runs, a pooled connection may have been closed by the server: retry once.
    await fetch(`${appUrl}/jobs`).catch(() => fetch(`${appUrl}/jobs`));
    // After all those distinct utm_source values, the real page is still in the cache.
    console.log(
      "\n/company after the runs with distinct utm_source: x-cache " +
        (await fetch(`${appUrl}/company`)).headers.get("x-cache"),
    );
    await fetch(`${appUrl}/api/cms-revalidate`, {
      method: "POST",
      headers: { authorization: `Bearer ${SECRET}`, "content-type": "application/json" },
      body: JSON.stringify({ uid: "api::page.page", next: { fullPaths: ["/jobs"] } }),
    });
    const before = await metric("isr_cache_regenerations_total");
    const statuses = await Promise.all(
      Array.from({ length: 500 }, () => fetch(`${appUrl}/jobs`).then((r) => r.headers.get("x-cache"))),
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    const regenerations = (await metric("isr_cache_regenerations_total")) - before;
    console.log(
      `\n500 concurrent requests on one stale key: ${regenerations} regeneration(s); ` +
        `x-cache: ${JSON.stringify(count(statuses))}`,
    );
  } finally {
    if (plain) await stopProcessGroup(plain);
    await stopProcessGroup(app);
    await cms.stop();
  }

  // Invalidation cost does not depend on the number of entries.
  for (const entries of [10, 100_000]) {
    const invalidations = new Invalidations();
    const cache = new IsrCache<string>({ store: new MemoryStore(1e12), invalidations });
    for (let i = 0; i < entries; i++) {
      await cache.get(`/p/${i}`, `/p/${i}`, async () => ({
        value: "x",
        cacheable: true,
        tags: [`t${i % 100}`, "cms:api::navbar.navbar"],
        revalidate: 300,
        size: 100,
      }));
    }
    const rounds = 100_000;
    const start = process.hrtime.bigint();
    for (let i = 0; i < rounds; i++) invalidations.revalidateTag("cms:api::navbar.navbar");
    const ns = Number(process.hrtime.bigint() - start) / rounds;
    console.log(`revalidateTag with ${entries.toLocaleString("en")} entries cached: ${ns.toFixed(0)} ns per call`);
  }
}

function count(values: Array<string | null>) {
  const counts: Record<string, number> = {};
  for (const value of values) counts[String(value)] = (counts[String(value)] ?? 0) + 1;
  return counts;
}

await main();
