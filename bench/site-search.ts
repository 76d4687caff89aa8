import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import getPort from "../tests/support/free-port.ts";

import { startApp, type AppHandle } from "../tests/support/app-server.ts";
import { startCms, type CmsHandle } from "../tests/support/cms-server.ts";
import { GroongaServer } from "../tests/support/groonga-server.ts";
import { TEST_ACCOUNT_API_SECRET } from "../tests/support/site-secret.ts";
import { StrapiAdmin } from "../tests/support/strapi-admin.ts";
import { buildSite } from "./support.ts";

/**
 * `npm run bench:search` (docs/search.md): the site's search with the embedded default (the CMS's
 * SQLite FTS5 index) over ARTICLES articles and PAGES pages per locale (en, de; 1,000 and 200 by
 * default), written through the admin API as editors would (create and publish in one call), on
 * top of the seed. Prints:
 * - the answer time of the site's `/search?q=` (the CMS's route, the render, one request at a
 *   time) and of the CMS's `GET /api/site-search` alone, p50/p95/max over QUERIES queries of
 *   one, two and three words, common and rare, and prefixes;
 * - the time from a publish (the editor's request sent) to the article being found by the site's
 *   search (polled every 5 ms), PUBLISHES times.
 * With BENCH_SEARCH_ENGINE=groonga, the same with the index in a real Groonga (docs/search.md, "Groonga")
 * started on a free port (not SEARCH_ENGINE: the CMS's test template, built from this process's
 * environment when the CMS's code changed, would be started with it and no GROONGA_URL).
 * Text is made of pseudo-words drawn with a Zipf-like law from a fixed vocabulary (seeded: the same
 * corpus every run), so a common word matches a large part of the corpus and a rare one a few.
 */
const ARTICLES = Number(process.env.ARTICLES ?? 1000);
const PAGES = Number(process.env.PAGES ?? 200);
const QUERIES = Number(process.env.QUERIES ?? 300);
const PUBLISHES = Number(process.env.PUBLISHES ?? 20);
const WRITERS = 4;
const GROONGA = process.env.BENCH_SEARCH_ENGINE === "groonga";
const LOCALES = ["en", "de"] as const;
const ARTICLE_CM = "/content-manager/collection-types/api::article.article";
const PAGE_CM = "/content-manager/collection-types/api::page.page";

/** mulberry32: a small seeded generator, so every run indexes the same text. */
function generator(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function vocabulary(random: () => number, syllables: string[], size: number) {
  const words = new Set<string>();
  while (words.size < size) {
    const n = 2 + Math.floor(random() * 3);
    words.add(Array.from({ length: n }, () => syllables[Math.floor(random() * syllables.length)]).join(""));
  }
  return [...words];
}

const SYLLABLES = {
  en: [
    "ca",
    "che",
    "pub",
    "lish",
    "ver",
    "sion",
    "ro",
    "ute",
    "ser",
    "ver",
    "pa",
    "ge",
    "sto",
    "ry",
    "ne",
    "two",
    "rk",
  ],
  de: [
    "ver",
    "öff",
    "ent",
    "lich",
    "ung",
    "sei",
    "te",
    "bü",
    "ro",
    "kaf",
    "fee",
    "ma",
    "schi",
    "ne",
    "zu",
    "ber",
    "lin",
  ],
};

function corpus(locale: "en" | "de") {
  const random = generator(locale === "en" ? 1 : 2);
  const words = vocabulary(random, SYLLABLES[locale], 5000);
  // Zipf-like: the word of rank r drawn with a probability about 1/r.
  const word = () => words[Math.min(words.length - 1, Math.floor(Math.exp(random() * Math.log(words.length))) - 1)]!;
  const text = (n: number) => Array.from({ length: n }, word).join(" ");
  return { words, text, random };
}

const paragraph = (text: string) => ({ type: "paragraph", children: [{ type: "text", text }] });

async function inParallel<T>(items: T[], worker: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: WRITERS }, async () => {
      while (next < items.length) await worker(items[next++]!);
    }),
  );
}

async function fill(admin: StrapiAdmin) {
  const started = performance.now();
  for (const locale of LOCALES) {
    const { text } = corpus(locale);
    const articles = Array.from({ length: ARTICLES }, (_, i) => i);
    await inParallel(articles, async (i) => {
      await admin.call("POST", `${ARTICLE_CM}/actions/publish?locale=${locale}`, {
        title: text(6),
        slug: `bench-${locale}-${i}`,
        excerpt: text(25),
        body: [paragraph(text(120)), paragraph(text(120)), paragraph(text(120))],
      });
    });
    const pages = Array.from({ length: PAGES }, (_, i) => i);
    await inParallel(pages, async (i) => {
      await admin.call("POST", `${PAGE_CM}/actions/publish?locale=${locale}`, {
        title: text(4),
        slug: `bench-${locale}-${i}`,
        seo: { metaDescription: text(25) },
        sections: [{ __component: "sections.rich-text", body: [paragraph(text(150)), paragraph(text(150))] }],
      });
    });
  }
  return (performance.now() - started) / 1000;
}

function queries(locale: "en" | "de") {
  const { words, random } = corpus(locale);
  const common = () => words[Math.floor(random() * 20)]!;
  const middling = () => words[20 + Math.floor(random() * 500)]!;
  const rare = () => words[1000 + Math.floor(random() * 4000)]!;
  const kinds = [
    () => common(),
    () => middling(),
    () => rare(),
    () => `${common()} ${middling()}`,
    () => `${middling()} ${rare()}`,
    () => `${common()} ${middling()} ${rare()}`,
    () => middling().slice(0, 3),
  ];
  return Array.from({ length: QUERIES }, (_, i) => kinds[i % kinds.length]!());
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
const summary = (times: number[]) => {
  const sorted = [...times].sort((a, b) => a - b);
  return `p50 ${percentile(sorted, 0.5).toFixed(1)} ms, p95 ${percentile(sorted, 0.95).toFixed(1)} ms, max ${sorted.at(-1)!.toFixed(1)} ms`;
};

async function timed(url: string, init?: RequestInit) {
  const started = performance.now();
  const response = await fetch(url, init);
  const body = await response.text();
  if (response.status !== 200) throw new Error(`${url}: ${response.status} ${body.slice(0, 200)}`);
  return { ms: performance.now() - started, body };
}

async function main() {
  if (process.env.BENCH_SITE_BUILT !== "1") buildSite();
  const dir = mkdtempSync(path.join(tmpdir(), "bench-search-"));
  let cms: CmsHandle | undefined;
  let app: AppHandle | undefined;
  let groonga: GroongaServer | undefined;
  try {
    const [cmsPort, appPort] = [await getPort(), await getPort()];
    if (GROONGA) {
      groonga = new GroongaServer(await getPort(), path.join(dir, "groonga"));
      await groonga.start();
    }
    cms = await startCms({
      port: cmsPort,
      dbFile: path.join(dir, "cms.db"),
      fresh: true,
      env: {
        CLIENT_URL: `http://127.0.0.1:${appPort}`,
        CMS_ACCOUNT_API_SECRET: TEST_ACCOUNT_API_SECRET,
        ...(groonga ? { SEARCH_ENGINE: "groonga", GROONGA_URL: groonga.url } : {}),
      },
    });
    console.log(`The index: ${groonga ? `Groonga at ${groonga.url}` : "the CMS's SQLite database (FTS5)"}`);
    app = await startApp({
      port: appPort,
      env: {
        CMS_URL: cms.url,
        CMS_REST_READONLY_API_KEY: cms.token,
        CMS_ACCOUNT_API_SECRET: TEST_ACCOUNT_API_SECRET,
        // Every measured search comes from 127.0.0.1: the CMS's answer times are measured, not the budget.
        SEARCH_RATE_LIMIT_MAX: "100000000",
      },
    });
    const admin = await StrapiAdmin.login(cms.url);
    const seconds = await fill(admin);
    console.log(
      `Wrote ${ARTICLES} articles and ${PAGES} pages per locale (${LOCALES.join(", ")}) in ${seconds.toFixed(0)} s ` +
        `(${(((ARTICLES + PAGES) * LOCALES.length) / seconds).toFixed(1)} publishes/s, ${WRITERS} at a time)\n`,
    );

    console.log("| locale | what | answer time |");
    console.log("|---|---|---|");
    for (const locale of LOCALES) {
      const list = queries(locale);
      const site: number[] = [];
      const direct: number[] = [];
      let results = 0;
      const prefix = locale === "en" ? "" : `/${locale}`;
      for (const q of list) {
        const page = await timed(`${app.url}${prefix}/search?q=${encodeURIComponent(q)}`);
        site.push(page.ms);
        results += (page.body.match(/<li><p class="search-result-type">/g) ?? []).length;
        const query = new URLSearchParams({ q, locale });
        direct.push(
          (await timed(`${cms.url}/api/site-search?${query}`, { headers: { authorization: `Bearer ${cms.token}` } }))
            .ms,
        );
      }
      console.log(
        `| ${locale} | site /search (${list.length} queries, ${(results / list.length).toFixed(1)} results shown on average) | ${summary(site)} |`,
      );
      console.log(`| ${locale} | CMS /api/site-search alone | ${summary(direct)} |`);
    }

    const found: number[] = [];
    for (let i = 0; i < PUBLISHES; i++) {
      const word = `fresh${i}x${Date.now().toString(36)}`;
      const sent = performance.now();
      await admin.call("POST", `${ARTICLE_CM}/actions/publish?locale=en`, {
        title: `Article ${word}`,
        slug: `fresh-${word}`,
      });
      const answered = performance.now() - sent;
      for (;;) {
        const page = await fetch(`${app.url}/search?q=${word}`);
        if ((await page.text()).includes(`/blog/fresh-${word}`)) break;
        if (performance.now() - sent > 30_000) throw new Error(`${word} not found within 30 s`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      found.push(performance.now() - sent);
      if (i === 0) console.log(`\nfirst publish: the editor's answer after ${answered.toFixed(0)} ms`);
    }
    console.log(`publish → found by /search (${PUBLISHES} publishes): ${summary(found)}`);
  } finally {
    await app?.stop();
    await cms?.stop();
    await groonga?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
