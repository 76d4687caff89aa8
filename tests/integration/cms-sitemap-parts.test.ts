import { createServer, type Server } from "node:http";

import getPort from "../support/free-port.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { getPage } from "../support/site-requests.ts";
import { StrapiAdmin } from "../support/strapi-admin.ts";
import { strapiSite } from "../support/strapi-site.ts";
import { until } from "../support/wait.ts";

// Issue 30, point 4, through the real Strapi and the production site (SITEMAP_MAX_URLS=3, so the
// seeded site needs several part files): a request for a sitemap part that does not exist must
// cost the CMS nothing and add no cache entry; before, each number was a new cache key whose
// render listed every page and article. A pass-through proxy between the site and Strapi logs
// every CMS request the site makes; /metrics gives the page cache's entry count.
const secrets = { CMS_REVALIDATE_SECRET: "sitemap-parts-revalidate-secret-0123456789" };
const METRICS = "sitemap-parts-metrics-secret-0123456789";
const LIMIT = 3;
const PAGES = "/content-manager/collection-types/api::page.page";
const proxyPort = await getPort();
const cmsRequests: string[] = [];
let proxy: Server;
let admin: StrapiAdmin;

// Registered before strapiSite's own beforeAll: the proxy is up before the site starts.
beforeAll(async () => {
  proxy = createServer(async (req, res) => {
    if (req.url?.startsWith("/api/")) cmsRequests.push(decodeURIComponent(req.url));
    try {
      const upstream = await fetch(`${site.cms.url}${req.url}`, {
        headers: { authorization: req.headers.authorization ?? "" },
      });
      const body = Buffer.from(await upstream.arrayBuffer());
      res.writeHead(upstream.status, { "content-type": upstream.headers.get("content-type") ?? "text/plain" });
      res.end(body);
    } catch (error) {
      res.writeHead(502, { "content-type": "text/plain" });
      res.end(`sitemap test proxy: ${(error as Error).message}`);
    }
  });
  await new Promise<void>((resolve) => proxy.listen(proxyPort, "127.0.0.1", resolve));
});
const site = strapiSite("sitemap-parts", {
  cmsEnv: () => secrets,
  appEnv: {
    ...secrets,
    CMS_URL: `http://127.0.0.1:${proxyPort}`,
    SITEMAP_MAX_URLS: String(LIMIT),
    METRICS_SECRET: METRICS,
  },
});

beforeAll(async () => {
  admin = await StrapiAdmin.login(site.cms.url);
}, 60_000);

afterAll(() => new Promise<void>((resolve) => proxy.close(() => resolve())));

const get = (path: string) => getPage(site.app.url, path);
const locsOf = (xml: string) => [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((match) => match[1]!);

async function metric(name: string): Promise<number> {
  const response = await fetch(`${site.app.url}/metrics`, { headers: { authorization: `Bearer ${METRICS}` } });
  return Number(new RegExp(`^${name} (\\d+)$`, "m").exec(await response.text())?.[1]);
}

/** The index's part files, each fetched: a 200 of at most LIMIT URLs. */
async function readParts() {
  const index = await get("/sitemap.xml");
  expect(index.status).toBe(200);
  expect(index.text).toContain("<sitemapindex");
  const parts = locsOf(index.text).map((loc) => new URL(loc).pathname);
  const urls: string[] = [];
  for (const [position, part] of parts.entries()) {
    expect(part).toBe(`/sitemap/${position + 1}.xml`);
    const file = await get(part);
    expect(file.status, part).toBe(200);
    const locs = locsOf(file.text);
    expect(locs.length).toBeGreaterThan(0);
    expect(locs.length).toBeLessThanOrEqual(LIMIT);
    urls.push(...locs.map((loc) => new URL(loc).pathname));
  }
  return { parts: parts.length, urls };
}

/** Every published page and article as the CMS lists it, as site paths (en unprefixed, de under /de). */
async function publishedPaths(): Promise<string[]> {
  const read = async (path: string) => {
    const response = await fetch(`${site.cms.url}${path}&locale=*&pagination[pageSize]=100`, {
      headers: { authorization: `Bearer ${site.cms.token}` },
    });
    return ((await response.json()) as { data: Array<Record<string, string>> }).data;
  };
  const sitePath = (path: string, locale: string) =>
    locale === "en" ? path : path === "/" ? `/${locale}` : `/${locale}${path}`;
  const pages = (await read("/api/pages?fields[0]=fullPath&fields[1]=locale")).map((page) =>
    sitePath(page.fullPath!, page.locale!),
  );
  const articles = (await read("/api/articles?fields[0]=slug&fields[1]=locale")).map((article) =>
    sitePath(`/blog/${article.slug}`, article.locale!),
  );
  return [...pages, ...articles].filter((path) => !/^\/(?!de\b)[a-z]{2}(\/|$)/.test(path));
}

const slug = (name: string) => `sitemap-${name}-${Date.now().toString(36)}`;

async function publishPage(page: string) {
  const { data } = (await admin.call("POST", `${PAGES}?locale=en`, { title: `Page ${page}`, slug: page })) as {
    data: { documentId: string };
  };
  await admin.call("POST", `${PAGES}/${data.documentId}/actions/publish?locale=en`, {});
}

describe("sitemap part files through the real Strapi", () => {
  it("the existing parts list every published page and article once, at most 3 a file", async () => {
    const { parts, urls } = await readParts();
    expect(parts).toBeGreaterThan(1);
    expect(urls).toHaveLength(new Set(urls).size);
    expect(urls).toEqual(expect.arrayContaining(await publishedPaths()));
  }, 60_000);

  it("a part that does not exist is a 404 that asks the CMS nothing and adds no cache entry", async () => {
    const { parts } = await readParts();
    // A `.data` twin runs the layout's loader too (navbar, footer): read once by any page, as on any live site.
    expect((await get("/sitemap/1.xml.data")).status).toBe(200);
    const entries = await metric("isr_cache_entries");
    cmsRequests.length = 0;
    const numbers = [parts + 1, parts + 2, 999_999_999, ...Array.from({ length: 20 }, (_, i) => 1000 + i * 7919)];
    const answers = await Promise.all(
      numbers.flatMap((number) => [get(`/sitemap/${number}.xml`), get(`/sitemap/${number}.xml.data`)]),
    );
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 404));
    expect(answers[0]!.text).toContain("/sitemap.xml");
    // Not the canonical spelling of a part: a 404 too, never part 7.
    expect((await get("/sitemap/007.xml")).status).toBe(404);
    expect(cmsRequests, "CMS requests for parts that do not exist").toEqual([]);
    expect(await metric("isr_cache_entries")).toBe(entries);
  }, 60_000);

  it("after a publish, a part far past the last costs two counts (one row each), never the listing", async () => {
    await readParts();
    await publishPage(slug("count"));
    await admin.revalidationsSettled();
    cmsRequests.length = 0;
    // A number nobody asked for yet (no cached answer of any kind).
    expect((await get("/sitemap/999999998.xml")).status).toBe(404);
    expect(cmsRequests.length).toBeLessThanOrEqual(2);
    for (const request of cmsRequests) expect(request).toMatch(/[?&]pagination\[pageSize\]=1(&|$)/);
  }, 60_000);

  it("pages published to need one more file: that part answers at once, the index lists it", async () => {
    const { parts, urls } = await readParts();
    const next = `/sitemap/${parts + 1}.xml`;
    expect((await get(next)).status).toBe(404);
    // Enough new pages to fill the last part and start another.
    const added = Array.from({ length: parts * LIMIT - urls.length + 1 }, (_, i) => slug(`more-${i}`));
    for (const page of added) await publishPage(page);
    await admin.revalidationsSettled();
    const part = await get(next);
    expect(part.status).toBe(200);
    expect(locsOf(part.text).length).toBeGreaterThan(0);
    const after = await until(
      "the index to list the new part",
      () => readParts(),
      (result) => result.parts === parts + 1,
    );
    expect(after.urls).toEqual(expect.arrayContaining(added.map((page) => `/${page}`)));
  }, 120_000);
});
