/**
 * What a visitor's browser measures (issue 31): `npm run bench:lighthouse`. Lighthouse (from npm)
 * in Debian's Chromium (/usr/bin/chromium, or CHROME_PATH) against the production build and the
 * real Strapi on a freshly seeded database: `/`, `/blog`, an article and a page built from sections,
 * with Lighthouse's mobile preset (simulated slow 4G and a 4x slower CPU) and its desktop preset,
 * BENCH_RUNS times each (default 3). Prints the medians: the performance score, LCP, TBT, CLS, the
 * bytes of JavaScript and of images transferred, and the accessibility, best-practices and SEO
 * scores. Each page is asked for once before the runs, so Lighthouse sees what most visitors get:
 * a page from the cache. Builds the site first unless BENCH_SITE_BUILT=1; BENCH_SITE_ROOT runs the
 * built site of another checkout (an older commit's, for a before-and-after). Asserts nothing; the
 * scores move with the machine's load (print `uptime` next to them).
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import * as chromeLauncher from "chrome-launcher";
import getPort from "../tests/support/free-port.ts";
import lighthouse, { type Config, type Flags } from "lighthouse";
import desktopConfig from "lighthouse/core/config/desktop-config.js";

import { projectRoot, startApp, type AppHandle } from "../tests/support/app-server.ts";
import { startCms } from "../tests/support/cms-server.ts";
import { TEST_ACCOUNT_API_SECRET } from "../tests/support/site-secret.ts";
import { buildSite } from "./support.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const CHROME = process.env.CHROME_PATH ?? "/usr/bin/chromium";
// The seed's pages (cms/src/seed/demo-content.js): /company/careers is made of sections only.
const PAGES = ["/", "/blog", "/blog/shipping-twice-a-day", "/company/careers"];
const PRESETS: Record<string, Config | undefined> = { mobile: undefined, desktop: desktopConfig };
const CHROME_FLAGS = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

interface Run {
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  lcp: number;
  tbt: number;
  cls: number;
  jsBytes: number;
  imageBytes: number;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

async function measure(url: string, port: number, config: Config | undefined): Promise<Run> {
  const flags: Flags = {
    port,
    output: "json",
    logLevel: "error",
    onlyCategories: ["performance", "accessibility", "best-practices", "seo"],
  };
  const result = await lighthouse(url, flags, config);
  if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
  const { categories, audits, runtimeError } = result.lhr;
  if (runtimeError) throw new Error(`Lighthouse on ${url}: ${runtimeError.code} ${runtimeError.message}`);
  const score = (id: string) => Math.round((categories[id]?.score ?? NaN) * 100);
  const numeric = (id: string) => audits[id]?.numericValue ?? NaN;
  const items = ((audits["resource-summary"]?.details as { items?: unknown[] } | undefined)?.items ?? []) as {
    resourceType: string;
    transferSize: number;
  }[];
  const bytes = (type: string) => items.find((item) => item.resourceType === type)?.transferSize ?? 0;
  return {
    performance: score("performance"),
    accessibility: score("accessibility"),
    bestPractices: score("best-practices"),
    seo: score("seo"),
    lcp: numeric("largest-contentful-paint"),
    tbt: numeric("total-blocking-time"),
    cls: numeric("cumulative-layout-shift"),
    jsBytes: bytes("script"),
    imageBytes: bytes("image"),
  };
}

/**
 * A run whose trace Chromium failed to record (NO_NAVSTART, NO_FCP: seen on a loaded machine) is
 * no measurement of the page: run it again, up to three attempts, and say so on stderr. A run that
 * fails three times is left out of its row (null), and counted.
 */
let retries = 0;
let dropped = 0;
async function measureWithRetries(url: string, port: number, config: Config | undefined): Promise<Run | null> {
  for (let attempt = 1; attempt <= 3; attempt += 1) {
    try {
      return await measure(url, port, config);
    } catch (error) {
      console.error(`attempt ${attempt} failed: ${(error as Error).message}`);
      if (attempt < 3) retries += 1;
    }
  }
  dropped += 1;
  return null;
}

const lighthouseVersion = () =>
  (
    JSON.parse(readFileSync(path.join(projectRoot, "node_modules/lighthouse/package.json"), "utf8")) as {
      version: string;
    }
  ).version;

async function main() {
  if (process.env.BENCH_SITE_BUILT !== "1") buildSite();
  const dir = mkdtempSync(path.join(tmpdir(), "bench-lighthouse-"));
  const [cmsPort, appPort] = [await getPort(), await getPort()];
  let cms: Awaited<ReturnType<typeof startCms>> | undefined;
  let app: AppHandle | undefined;
  let chrome: chromeLauncher.LaunchedChrome | undefined;
  try {
    cms = await startCms({
      port: cmsPort,
      dbFile: path.join(dir, "cms.db"),
      fresh: true,
      env: { CLIENT_URL: `http://127.0.0.1:${appPort}`, CMS_ACCOUNT_API_SECRET: TEST_ACCOUNT_API_SECRET },
    });
    app = await startApp({
      port: appPort,
      root: process.env.BENCH_SITE_ROOT,
      env: { CMS_URL: cms.url, CMS_REST_READONLY_API_KEY: cms.token, CMS_ACCOUNT_API_SECRET: TEST_ACCOUNT_API_SECRET },
    });
    for (const page of PAGES) {
      const response = await fetch(`${app.url}${page}`);
      if (response.status !== 200) throw new Error(`${page} answered ${response.status}`);
    }
    chrome = await chromeLauncher.launch({ chromePath: CHROME, chromeFlags: CHROME_FLAGS });

    const rows: string[] = [];
    for (const [preset, config] of Object.entries(PRESETS))
      for (const page of PAGES) {
        const runs: Run[] = [];
        for (let i = 0; i < RUNS; i += 1) {
          const run = await measureWithRetries(`${app.url}${page}`, chrome.port, config);
          if (run) runs.push(run);
        }
        if (runs.length === 0) throw new Error(`no run of ${page} (${preset}) succeeded`);
        const m = (key: keyof Run) => median(runs.map((run) => run[key]));
        rows.push(
          `| ${page} | ${preset} | ${m("performance")} (${runs.map((run) => run.performance).join(", ")}) | ` +
            `${Math.round(m("lcp"))} | ${Math.round(m("tbt"))} | ${m("cls").toFixed(3)} | ` +
            `${(m("jsBytes") / 1024).toFixed(1)} | ${(m("imageBytes") / 1024).toFixed(1)} | ` +
            `${m("accessibility")} | ${m("bestPractices")} | ${m("seo")} |`,
        );
        console.error(rows.at(-1));
      }
    console.log(
      `Lighthouse ${lighthouseVersion()}, ` +
        `${RUNS} runs per row, medians (the performance score of each run in brackets); ` +
        `${retries} runs repeated for a failed trace, ${dropped} left out after three failures.\n`,
    );
    console.log(
      "| page | preset | performance | LCP ms | TBT ms | CLS | JS KiB | images KiB | a11y | best pr. | SEO |",
    );
    console.log("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (const row of rows) console.log(row);
  } finally {
    chrome?.kill();
    await app?.stop();
    await cms?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
