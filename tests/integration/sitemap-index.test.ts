import { describe, expect, it } from "vitest";

import { getPage, postRevalidation } from "../support/site-requests.ts";
import type { StandInCms } from "../support/stand-in-cms.ts";
import { standInSite } from "../support/stand-in-site.ts";
import { until } from "../support/wait.ts";

// A sitemap too large for one file, over HTTP: the production build against a stand-in CMS,
// with SITEMAP_MAX_URLS=3 standing in for the protocol's 50,000. /sitemap.xml becomes a sitemap
// index of /sitemap/<n>.xml, each part a plain sitemap of a slice; the parts go through the page
// cache with the page type's tag. The small-site case (one plain file) is in seo.test.ts.
const SECRET = "revalidate-secret-0123456789";
const PUBLIC = "https://www.example.com";
const LIMIT = 3;
const NAMESPACE = "http://www.sitemaps.org/schemas/sitemap/0.9";

const site = standInSite({
  seed: (cms) => {
    for (const [index, path] of ["/", "/a", "/b&c", "/d", "/e", "/f", "/g"].entries())
      cms.setPage({ fullPath: path, title: path, updatedAt: `2026-01-0${index + 1}T10:00:00.000Z` });
    cms.setPage({ fullPath: "/", title: "Start", locale: "de", updatedAt: "2026-02-01T10:00:00.000Z" });
    cms.setPage({ fullPath: "/a", title: "A", locale: "de" });
    cms.setPage({ fullPath: "/x", title: "A locale the site does not serve", locale: "fr" });
    cms.setPage({ fullPath: "/b", title: "B", locale: "de", updatedAt: "2026-01-15T10:00:00.000Z" });
  },
  env: { APP_PUBLIC_URL: PUBLIC, CMS_REVALIDATE_SECRET: SECRET, SITEMAP_MAX_URLS: String(LIMIT) },
});

/** The ten URLs the seed serves (the French page is not one: the site serves en and de). */
const SEEDED = [
  `${PUBLIC}/`,
  `${PUBLIC}/a`,
  `${PUBLIC}/b&amp;c`,
  `${PUBLIC}/d`,
  `${PUBLIC}/e`,
  `${PUBLIC}/f`,
  `${PUBLIC}/g`,
  `${PUBLIC}/de`,
  `${PUBLIC}/de/a`,
  `${PUBLIC}/de/b`,
];

const get = (path: string) => getPage(site.app.url, path);
const listRequests = (cms: StandInCms) =>
  cms.requests.filter((request) => request.startsWith("/api/pages?") && request.includes("sort[0]=fullPath:asc"))
    .length;

/**
 * The children of a sitemap or sitemap index, after checking the document is well-formed XML
 * (one root, balanced tags, no attribute but the root's namespace, only the five predefined
 * entities in text) of the protocol's shape: `root` > `item` > `loc` and an optional `lastmod`.
 */
function parseSitemapXml(xml: string, root: "urlset" | "sitemapindex", item: "url" | "sitemap") {
  const declaration = '<?xml version="1.0" encoding="UTF-8"?>\n';
  expect(xml.startsWith(declaration)).toBe(true);
  const stack: string[] = [];
  const items: Array<Record<string, string>> = [];
  let current: Record<string, string> | undefined;
  let text = "";
  let roots = 0;
  const token = /<(\/?)([a-z]+)( xmlns="[^"]*")?>|([^<]+)/gy;
  token.lastIndex = declaration.length;
  let end = token.lastIndex;
  for (let match = token.exec(xml); match; match = token.exec(xml)) {
    end = token.lastIndex;
    const [, closing, name, attribute, content] = match;
    if (content !== undefined) {
      expect(content.replace(/&(amp|lt|gt|quot|apos);/g, "")).not.toMatch(/[&>"]/);
      if (stack.length < 2) expect(content.trim()).toBe("");
      text += content;
      continue;
    }
    if (closing) {
      expect(stack.pop()).toBe(name);
      if (stack.length === 2) current![name!] = text;
      if (stack.length === 1) items.push(current!);
      continue;
    }
    expect(attribute).toBe(stack.length === 0 ? ` xmlns="${NAMESPACE}"` : undefined);
    expect(name).toBe([root, item][stack.length] ?? (stack.length === 2 ? name : "nothing this deep"));
    if (stack.length === 0) roots++;
    if (stack.length === 1) current = {};
    if (stack.length === 2) {
      expect(["loc", "lastmod"]).toContain(name);
      expect(current![name!]).toBeUndefined();
    }
    stack.push(name!);
    text = "";
  }
  // Nothing the tokens above do not cover (a comment, a stray `<`, an unknown tag's syntax).
  expect(end).toBe(xml.length);
  expect(stack).toEqual([]);
  expect(roots).toBe(1);
  for (const entry of items) {
    expect(entry.loc?.startsWith(`${PUBLIC}/`)).toBe(true);
    if (entry.lastmod !== undefined) expect(entry.lastmod).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  }
  return items;
}

/** The index's parts, then every part fetched and checked: each a valid sitemap of at most LIMIT URLs. */
async function readWholeSitemap() {
  const index = await get("/sitemap.xml");
  expect(index.status).toBe(200);
  expect(index.response.headers.get("content-type")).toBe("application/xml; charset=utf-8");
  const parts = parseSitemapXml(index.text, "sitemapindex", "sitemap");
  const urls: Array<Record<string, string>> = [];
  for (const [position, part] of parts.entries()) {
    expect(part.loc).toBe(`${PUBLIC}/sitemap/${position + 1}.xml`);
    const file = await get(new URL(part.loc!).pathname);
    expect(file.status).toBe(200);
    expect(file.response.headers.get("content-type")).toBe("application/xml; charset=utf-8");
    const entries = parseSitemapXml(file.text, "urlset", "url");
    expect(entries.length).toBeGreaterThan(0);
    expect(entries.length).toBeLessThanOrEqual(LIMIT);
    // The part's lastmod in the index: the newest of its URLs' (none when none has one).
    const newest = entries.map((entry) => entry.lastmod ?? "").reduce((a, b) => (a > b ? a : b), "");
    expect(part.lastmod ?? "").toBe(newest);
    urls.push(...entries);
  }
  return { parts, urls, locs: urls.map((entry) => entry.loc!) };
}

describe("a sitemap larger than one file", () => {
  it("CMS down and nothing good cached: the index and a part answer 503 with Retry-After", async () => {
    site.cms.mode = "error";
    for (const path of ["/sitemap.xml", "/sitemap/1.xml"]) {
      const down = await get(path);
      expect(down.status).toBe(503);
      expect(down.response.headers.get("retry-after")).toBe("120");
      expect(down.text).not.toContain("<url");
    }
    site.cms.mode = "healthy";
  });

  it("is an index of parts that together list every page exactly once, each part valid and within the limit", async () => {
    const { parts, urls, locs } = await readWholeSitemap();
    expect(parts).toHaveLength(Math.ceil(SEEDED.length / LIMIT));
    expect(locs).toHaveLength(new Set(locs).size);
    expect([...locs].sort()).toEqual([...SEEDED].sort());
    expect(urls).toContainEqual({ loc: `${PUBLIC}/de/b`, lastmod: "2026-01-15T10:00:00.000Z" });
    expect(urls).toContainEqual({ loc: `${PUBLIC}/de/a` });
    // Stable slices: the same part twice is the same bytes.
    expect((await get("/sitemap/2.xml")).text).toBe((await get("/sitemap/2.xml")).text);
  });

  it("serves the parts from the page cache, tagged with the lists they read, whatever the query string", async () => {
    const first = await get("/sitemap/2.xml");
    const before = listRequests(site.cms);
    const again = await get("/sitemap/2.xml?page=1&utm_source=x");
    expect(again.cache).toBe("HIT");
    expect(again.text).toBe(first.text);
    // The lists of every locale of pages and articles (no article here), their sort's fields (the
    // pages' `fullPath` among the page tags left out), and each page listed.
    const tags = again.response.headers.get("cache-tag")?.split(",") ?? [];
    expect(tags.filter((tag) => !/^cms:api::page\.page:(?!list:)/.test(tag)).sort()).toEqual([
      "cms:api::article.article",
      "cms:api::article.article:field:*:slug",
      "cms:api::article.article:list:*",
      "cms:api::page.page",
      "cms:api::page.page:list:*",
      "path:/sitemap/2.xml",
    ]);
    expect((await get("/sitemap.xml?sitemap=2")).cache).toBe("HIT");
    expect(listRequests(site.cms)).toBe(before);
  });

  it("answers 404 for a part past the last, and for a name that is no part's without asking the CMS", async () => {
    const { parts } = await readWholeSitemap();
    const past = await get(`/sitemap/${parts.length + 1}.xml`);
    expect(past.status).toBe(404);
    expect(past.text).toContain("/sitemap.xml");
    const before = listRequests(site.cms);
    for (const path of ["/sitemap/0.xml", "/sitemap/01.xml", "/sitemap/abc.xml", "/sitemap/1.json", "/sitemap/1"])
      expect((await get(path)).status, path).toBe(404);
    expect(listRequests(site.cms)).toBe(before);
  });

  it("is revalidated by a page publish: a new part appears, its 404 gone, with lastmod in the index", async () => {
    const { parts } = await readWholeSitemap();
    const next = `/sitemap/${parts.length + 1}.xml`;
    expect((await get(next)).status).toBe(404);
    // Enough new pages to fill the last part and start another.
    const added = ["/h", "/i", "/j"];
    for (const path of added) site.cms.setPage({ fullPath: path, title: path, updatedAt: "2026-03-01T10:00:00.000Z" });
    await postRevalidation(site.app.url, SECRET, { fullPaths: added, tags: ["cms:api::page.page:list:*"] });
    await until(
      `${next} to exist`,
      () => get(next),
      (result) => result.status === 200,
    );
    const after = await until(
      "the index to list the new part",
      () => readWholeSitemap(),
      (result) => result.parts.length === parts.length + 1,
    );
    expect([...after.locs].sort()).toEqual([...SEEDED, ...added.map((path) => `${PUBLIC}${path}`)].sort());
    expect(after.parts.at(-1)?.lastmod).toBe("2026-03-01T10:00:00.000Z");
  });
});

describe("/robots.txt", () => {
  it("still names /sitemap.xml, the index, and nothing else", async () => {
    const { text } = await get("/robots.txt");
    expect(text.match(/^Sitemap: .*$/gm)).toEqual([`Sitemap: ${PUBLIC}/sitemap.xml`]);
  });
});
