/**
 * Publish-to-visible behind a CDN (issue 24, docs/decisions/0028): `npm run bench:publish`.
 * The real Strapi, two production site instances sharing a real Redis, a real Varnish in front of
 * both (round robin). An editor publishes one page BENCH_PUBLISHES times (default 100) through the
 * admin API; meanwhile visitors ask the CDN and each instance every 10 ms. Prints, from the
 * moment the publish request was sent: when every instance answered the new page (origin) and
 * when the CDN did (edge), p50 / p95 / max; the count of old pages answered to requests sent after
 * the CMS had answered the editor; and what the instances' publish_to_visible_seconds recorded
 * (from the CMS's commit). Asserts nothing.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import getPort from "../tests/support/free-port.ts";

import { startApp, type AppHandle } from "../tests/support/app-server.ts";
import { startCms } from "../tests/support/cms-server.ts";
import { RedisServer } from "../tests/support/redis-server.ts";
import { TEST_ACCOUNT_API_SECRET } from "../tests/support/site-secret.ts";
import { StrapiAdmin } from "../tests/support/strapi-admin.ts";
import { startVarnish } from "../tests/support/varnish.ts";
import { buildSite } from "./support.ts";

const PUBLISHES = Number(process.env.BENCH_PUBLISHES ?? 100);
const POLL_MS = 10;
const PAGES = "/content-manager/collection-types/api::page.page";
const METRICS_SECRET = "bench-metrics-secret-0123456789";
const secrets = {
  CMS_REVALIDATE_SECRET: "bench-revalidate-secret-0123456789",
  CMS_CDN_PURGE_SECRET: "bench-cdn-purge-secret-0123456789",
};

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
};
const seconds = (ms: number) => (ms / 1000).toFixed(3);

let lastHeaders = "";
async function title(base: string, pagePath: string): Promise<string> {
  const response = await fetch(`${base}${pagePath}`);
  const text = await response.text();
  lastHeaders = `${response.headers.get("x-cache")} ${response.headers.get("x-cdn-cache")}`;
  return /<h1[^>]*>([^<]*)<\/h1>/.exec(text)?.[1] ?? text.slice(0, 80);
}

/** publish_to_visible_seconds of one instance: count and sum per via. */
async function histogram(base: string) {
  const text = await (
    await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_SECRET}` } })
  ).text();
  const read = (name: string, via: string) =>
    Number(new RegExp(`^publish_to_visible_seconds_${name}\\{via="${via}"\\} (\\S+)`, "m").exec(text)?.[1] ?? 0);
  const buckets = (via: string) =>
    [
      ...text.matchAll(new RegExp(`^publish_to_visible_seconds_bucket\\{le="([^"]+)",via="${via}"\\} (\\S+)`, "gm")),
    ].map((match) => ({ le: Number(match[1]), count: Number(match[2]) }));
  return ["origin", "edge"].map((via) => ({
    via,
    count: read("count", via),
    sum: read("sum", via),
    buckets: buckets(via),
  }));
}

async function main() {
  buildSite();
  const dir = mkdtempSync(path.join(tmpdir(), "bench-cdn-publish-"));
  const [redisPort, cmsPort, aPort, bPort, cdnPort] = [
    await getPort(),
    await getPort(),
    await getPort(),
    await getPort(),
    await getPort(),
  ];
  const redis = new RedisServer(redisPort);
  const apps: AppHandle[] = [];
  let cms: Awaited<ReturnType<typeof startCms>> | undefined;
  let cdn: Awaited<ReturnType<typeof startVarnish>> | undefined;
  try {
    await redis.start();
    cms = await startCms({
      port: cmsPort,
      dbFile: path.join(dir, "cms.db"),
      fresh: true,
      env: { CLIENT_URL: `http://127.0.0.1:${aPort}`, CMS_ACCOUNT_API_SECRET: TEST_ACCOUNT_API_SECRET, ...secrets },
    });
    const env = {
      ...secrets,
      CMS_URL: cms.url,
      CMS_REST_READONLY_API_KEY: cms.token,
      CMS_ACCOUNT_API_SECRET: TEST_ACCOUNT_API_SECRET,
      REDIS_URL: redis.url,
      CDN_PROVIDER: "http",
      CDN_PURGE_URL: `http://127.0.0.1:${cdnPort}`,
      METRICS_SECRET,
      APP_PUBLIC_URL: `http://127.0.0.1:${aPort}`,
    };
    apps.push(await startApp({ port: aPort, env }));
    apps.push(await startApp({ port: bPort, env }));
    const edgeCache = await startVarnish({ port: cdnPort, backendPort: [aPort, bPort] });
    cdn = edgeCache;
    const admin = await StrapiAdmin.login(cms.url);
    const slug = `bench-publish-${Date.now().toString(36)}`;
    const pagePath = `/${slug}`;
    const { data } = (await admin.call("POST", `${PAGES}?locale=en`, { title: "Version 0", slug })) as {
      data: { documentId: string };
    };
    const id = data.documentId;
    await admin.call("POST", `${PAGES}/${id}/actions/publish?locale=en`, {});
    for (let i = 0; i < 5; i += 1)
      for (const base of [apps[0]!.url, apps[1]!.url, edgeCache.url]) await title(base, pagePath);

    const origin: number[] = [];
    const edge: number[] = [];
    const answered: number[] = [];
    let oldAfterAnswer = 0;
    let requestsAfterAnswer = 0;
    for (let round = 1; round <= PUBLISHES; round += 1) {
      const next = `Version ${round}`;
      await admin.call("PUT", `${PAGES}/${id}?locale=en`, { title: next });
      const sent = performance.now();
      let answeredAt = Infinity;
      const firstNew = new Map<string, number>();
      let polling = true;
      const poll = async (where: string, base: string) => {
        while (polling) {
          const askedAt = performance.now();
          const seen = await title(base, pagePath);
          if (seen === next) {
            if (!firstNew.has(where)) firstNew.set(where, performance.now() - sent);
          } else if (askedAt > answeredAt) {
            oldAfterAnswer += 1;
            if (process.env.BENCH_DEBUG)
              console.log(`old after answer: ${where} ${seen} ${lastHeaders} +${(askedAt - answeredAt).toFixed(1)} ms`);
          }
          if (askedAt > answeredAt) requestsAfterAnswer += 1;
          if (firstNew.size === 3 && askedAt > answeredAt) return;
          await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        }
      };
      const pollers = [poll("a", apps[0]!.url), poll("b", apps[1]!.url), poll("cdn", edgeCache.url)];
      await admin.call("POST", `${PAGES}/${id}/actions/publish?locale=en`, {});
      answeredAt = performance.now();
      answered.push(answeredAt - sent);
      const deadline = setTimeout(() => (polling = false), 10_000);
      await Promise.all(pollers);
      clearTimeout(deadline);
      polling = false;
      origin.push(Math.max(firstNew.get("a") ?? Infinity, firstNew.get("b") ?? Infinity));
      edge.push(firstNew.get("cdn") ?? Infinity);
    }

    console.log(
      `Publish to visible: ${PUBLISHES} publishes of one page through the real Strapi; two instances on Redis behind Varnish; ` +
        `visitors every ${POLL_MS} ms at each instance and at the CDN. Seconds from the publish request.\n`,
    );
    console.log("| where | p50 s | p95 s | max s |");
    console.log("|---|---:|---:|---:|");
    for (const [where, values] of [
      ["editor's answer", answered],
      ["origin (both instances)", origin],
      ["edge (Varnish)", edge],
    ] as const)
      console.log(
        `| ${where} | ${seconds(percentile(values, 50))} | ${seconds(percentile(values, 95))} | ${seconds(Math.max(...values))} |`,
      );
    console.log(
      `\nOld pages answered to requests sent after the editor's answer: ${oldAfterAnswer} of ${requestsAfterAnswer}`,
    );
    console.log("\npublish_to_visible_seconds (from the CMS's commit; the instances' /metrics, summed):");
    const both = await Promise.all(apps.map((app) => histogram(app.url)));
    for (const via of ["origin", "edge"]) {
      const rows = both.flat().filter((row) => row.via === via);
      const count = rows.reduce((sum, row) => sum + row.count, 0);
      const sum = rows.reduce((total, row) => total + row.sum, 0);
      const les = [...new Set(rows.flatMap((row) => row.buckets.map((bucket) => bucket.le)))].sort((a, b) => a - b);
      const cumulative = les.map((le) => ({
        le,
        count: rows.reduce((total, row) => total + (row.buckets.find((bucket) => bucket.le === le)?.count ?? 0), 0),
      }));
      const bucketOf = (p: number) => cumulative.find((bucket) => bucket.count >= (p / 100) * count)?.le;
      console.log(
        `- ${via}: ${count} observations, mean ${count ? (sum / count).toFixed(3) : "-"} s, ` +
          `p50 ≤ ${bucketOf(50) ?? "-"} s, p95 ≤ ${bucketOf(95) ?? "-"} s (bucket bounds)`,
      );
    }
  } finally {
    await cdn?.stop();
    for (const app of apps) await app.stop();
    await cms?.stop();
    await redis.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
