import { describe, expect, it } from "vitest";

import { standInSite } from "../support/stand-in-site.ts";
import { strapiSite } from "../support/strapi-site.ts";
import { until } from "../support/wait.ts";

// After a (re)start, the site requests the CMS's published pages, the blog's listing and feed in
// each locale and the newest articles itself, in the background: the first visitors find them cached.
const site = standInSite({
  seed: (cms) => {
    for (const fullPath of ["/", "/about", "/team", "/positions", "/positions/a"])
      cms.setPage({ fullPath, title: `Page ${fullPath}` });
    cms.setPage({ fullPath: "/about", title: "Über uns", locale: "de" });
    cms.setPage({ fullPath: "/x", title: "Not a configured locale", locale: "fr" });
  },
  env: {
    CACHE_WARM_PAGES: "20",
  },
});

// The real Strapi's seeded blog (the shared CMS: no test file that shares it writes articles).
// Only articles published before this file started are sure to have been listed by the warm start.
const startedAt = new Date().toISOString();
const real = strapiSite("warm-start", { sharedCms: true, appEnv: { CACHE_WARM_PAGES: "200" } });

const warmStartOver = (output: () => string) =>
  until("the warm start", output, (text) => /\[cache\] warm start: \d+ page/.test(text), { timeoutMs: 30_000 });

async function cacheOf(url: string): Promise<string | null> {
  const response = await fetch(url);
  await response.arrayBuffer();
  return response.headers.get("x-cache");
}

describe("warm start", () => {
  it("requests the published pages, the blog's listings and feeds (at most CACHE_WARM_PAGES) so the first visitors get HITs", async () => {
    await warmStartOver(site.app.output);
    // 6 pages (the fr one leads to no site URL: not requested, not counted) and the blog's 4.
    expect(site.app.output()).toMatch(/\[cache\] warm start: 10 page\(s\) requested"/);
    const contentCalls = site.cms.requests.length;
    const paths = ["/", "/about", "/team", "/positions", "/positions/a", "/de/about"];
    for (const path of [...paths, "/blog", "/blog/rss.xml", "/de/blog", "/de/blog/rss.xml"]) {
      expect(await cacheOf(`${site.app.url}${path}`), path).toBe("HIT");
    }
    // The first visitors cost the CMS nothing.
    expect(site.cms.requests.length).toBe(contentCalls);
  });

  it("through the real Strapi: the newest articles of each locale, the listing and the feed are HITs at once", async () => {
    await warmStartOver(real.app.output);
    const newest: string[] = [];
    for (const [locale, prefix] of [
      ["en", ""],
      ["de", "/de"],
    ]) {
      const query = new URLSearchParams({
        locale: locale!,
        "sort[0]": "publishDate:desc",
        "sort[1]": "slug:asc",
        "filters[publishedAt][$lt]": startedAt,
        "pagination[pageSize]": "2",
        "fields[0]": "slug",
      });
      const response = await fetch(`${real.cms.url}/api/articles?${query}`, {
        headers: { authorization: `Bearer ${real.cms.token}` },
      });
      const { data } = (await response.json()) as { data: Array<{ slug: string }> };
      expect(data.length, `seeded ${locale} articles`).toBeGreaterThan(0);
      newest.push(...data.map((article) => `${prefix}/blog/${article.slug}`));
    }
    for (const path of [...newest, "/blog", "/de/blog", "/blog/rss.xml"]) {
      expect(await cacheOf(`${real.app.url}${path}`), path).toBe("HIT");
    }
  });
});
