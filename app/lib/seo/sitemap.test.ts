import { describe, expect, it } from "vitest";

import {
  escapeXml,
  isSitemapPartPath,
  lastmodOf,
  planSitemap,
  SITEMAP_HEAD,
  SITEMAP_MAX_LOC_BYTES,
  SITEMAP_MAX_URLS,
  SITEMAP_TAIL,
  sitemapEntry,
  sitemapIndex,
  sitemapPartNumber,
  sitemapPartsBound,
  sitemapStream,
  type SitemapPage,
} from "./sitemap.ts";

const config = { locales: ["en", "de"], defaultLocale: "en" };
const origin = "https://www.example.com";

async function read(stream: ReadableStream<Uint8Array>) {
  const chunks: string[] = [];
  const decoder = new TextDecoder();
  for await (const chunk of stream) chunks.push(decoder.decode(chunk, { stream: true }));
  return { chunks, text: chunks.join("") };
}

describe("escapeXml", () => {
  it("escapes the five XML specials and drops characters XML 1.0 forbids", () => {
    expect(escapeXml(`a&b<c>d"e'f`)).toBe("a&amp;b&lt;c&gt;d&quot;e&apos;f");
    expect(escapeXml("a\u0000b\u0008c\u000bd\ufffee\tf\ng")).toBe("abcde\tf\ng");
    expect(escapeXml("&amp;")).toBe("&amp;amp;");
  });
});

describe("lastmodOf", () => {
  it("gives a W3C datetime, or null for a missing or broken date", () => {
    expect(lastmodOf("2026-11-23T10:28:37.256Z")).toBe("2026-11-23T10:28:37.256Z");
    expect(lastmodOf("2026-11-23T12:28:37+02:00")).toBe("2026-11-23T10:28:37.000Z");
    expect(lastmodOf(null)).toBeNull();
    expect(lastmodOf(undefined)).toBeNull();
    expect(lastmodOf("yesterday-ish")).toBeNull();
  });
});

describe("sitemapEntry", () => {
  it("writes the canonical, escaped URL and lastmod", () => {
    expect(
      sitemapEntry({ fullPath: "/a&b", locale: "de", updatedAt: "2026-01-02T03:04:05.000Z" }, origin, config),
    ).toBe("<url><loc>https://www.example.com/de/a&amp;b</loc><lastmod>2026-01-02T03:04:05.000Z</lastmod></url>\n");
    expect(sitemapEntry({ fullPath: "/", locale: "en", updatedAt: null }, origin, config)).toBe(
      "<url><loc>https://www.example.com/</loc></url>\n",
    );
  });

  it("writes a listing's later page as its canonical URL with ?page=N, once each", () => {
    expect(sitemapEntry({ fullPath: "/blog", locale: "de", page: 3 }, origin, config)).toBe(
      "<url><loc>https://www.example.com/de/blog?page=3</loc></url>\n",
    );
    const pages = [
      { fullPath: "/blog", locale: "en" },
      { fullPath: "/blog", locale: "en", page: 2 },
      { fullPath: "/blog", locale: "en", page: 2 },
    ];
    expect(planSitemap(pages, origin, config)).toEqual([{ first: 0, count: 2, lastmod: null }]);
  });

  it("leaves out pages no site URL leads to", () => {
    expect(sitemapEntry({ fullPath: "/x", locale: "fr" }, origin, config)).toBe("");
    expect(sitemapEntry({ fullPath: "/a/../b", locale: "en" }, origin, config)).toBe("");
  });
});

describe("sitemapStream", () => {
  it("streams a complete urlset in chunks, each page once", async () => {
    const pages: SitemapPage[] = [
      { fullPath: "/", locale: "en", updatedAt: "2026-01-01T00:00:00.000Z" },
      { fullPath: "/", locale: "de", updatedAt: "2026-01-01T00:00:00.000Z" },
      { fullPath: "/jobs", locale: "en" },
      { fullPath: "/jobs", locale: "en" },
      { fullPath: "/x", locale: "fr" },
      { fullPath: "/<script>", locale: "en" },
    ];
    const { chunks, text } = await read(sitemapStream(pages, origin, config, { chunkSize: 2 }));
    expect(chunks.length).toBeGreaterThan(1);
    expect(
      text.startsWith(
        '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n',
      ),
    ).toBe(true);
    expect(text.endsWith("</urlset>\n")).toBe(true);
    expect([...text.matchAll(/<loc>([^<]*)<\/loc>/g)].map((match) => match[1])).toEqual([
      "https://www.example.com/",
      "https://www.example.com/de",
      "https://www.example.com/jobs",
      "https://www.example.com/%3Cscript%3E",
    ]);
  });

  it("writes an empty urlset for no pages", async () => {
    expect((await read(sitemapStream([], origin, config))).text).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n</urlset>\n',
    );
  });

  it("writes only the slice a part names, counting entries as the plan does (duplicates and unserved pages skipped)", async () => {
    const pages: SitemapPage[] = [
      { fullPath: "/a", locale: "en" },
      { fullPath: "/a", locale: "en" },
      { fullPath: "/b", locale: "fr" },
      { fullPath: "/b", locale: "en" },
      { fullPath: "/c", locale: "en" },
      { fullPath: "/d", locale: "en" },
    ];
    const slice = (first: number, count: number) =>
      read(sitemapStream(pages, origin, config, { chunkSize: 1, part: { first, count } }));
    expect(locs((await slice(1, 2)).text)).toEqual([`${origin}/b`, `${origin}/c`]);
    expect(locs((await slice(3, 5)).text)).toEqual([`${origin}/d`]);
    expect((await slice(4, 1)).text).toBe(SITEMAP_HEAD + SITEMAP_TAIL);
  });
});

const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((match) => match[1]!);
const numbered = (count: number, locale = "en") =>
  Array.from({ length: count }, (_, index) => ({ fullPath: `/p${String(index).padStart(3, "0")}`, locale }));

describe("planSitemap", () => {
  it("cuts the URLs into consecutive parts of at most maxUrls, each with its newest lastmod", () => {
    const pages: SitemapPage[] = [
      { fullPath: "/a", locale: "en", updatedAt: "2026-01-03T00:00:00.000Z" },
      { fullPath: "/a", locale: "de", updatedAt: "2026-01-05T00:00:00+02:00" },
      { fullPath: "/a", locale: "fr", updatedAt: "2027-01-01T00:00:00.000Z" },
      { fullPath: "/a", locale: "en", updatedAt: "2027-01-01T00:00:00.000Z" },
      { fullPath: "/b", locale: "en", updatedAt: "2026-01-04T00:00:00.000Z" },
      { fullPath: "/c", locale: "en", updatedAt: null },
      { fullPath: "/d", locale: "en" },
      { fullPath: "/e", locale: "en", updatedAt: "not a date" },
      { fullPath: "/f", locale: "de", updatedAt: "2026-02-01T00:00:00.000Z" },
    ];
    expect(planSitemap(pages, origin, config, { maxUrls: 3 })).toEqual([
      { first: 0, count: 3, lastmod: "2026-01-04T22:00:00.000Z" },
      { first: 3, count: 3, lastmod: null },
      { first: 6, count: 1, lastmod: "2026-02-01T00:00:00.000Z" },
    ]);
    expect(planSitemap(pages, origin, config, { maxUrls: 7 })).toHaveLength(1);
    expect(planSitemap([], origin, config)).toEqual([]);
    expect(planSitemap([{ fullPath: "/x", locale: "fr" }], origin, config)).toEqual([]);
  });

  it("keeps to the protocol's limits by default: 50,000 URLs a file", () => {
    const parts = planSitemap(numbered(SITEMAP_MAX_URLS + 3), origin, config);
    expect(parts.map((part) => [part.first, part.count])).toEqual([
      [0, SITEMAP_MAX_URLS],
      [SITEMAP_MAX_URLS, 3],
    ]);
    expect(planSitemap(numbered(SITEMAP_MAX_URLS), origin, config)).toHaveLength(1);
  });

  it("starts a new part before a file would pass maxBytes, head and tail included", async () => {
    const pages = numbered(5);
    const entryBytes = sitemapEntry(pages[0]!, origin, config).length;
    const maxBytes = (SITEMAP_HEAD + SITEMAP_TAIL).length + 2 * entryBytes;
    const parts = planSitemap(pages, origin, config, { maxBytes });
    expect(parts.map((part) => part.count)).toEqual([2, 2, 1]);
    for (const part of parts) {
      const { text } = await read(sitemapStream(pages, origin, config, { part }));
      expect(new TextEncoder().encode(text).byteLength).toBeLessThanOrEqual(maxBytes);
    }
    expect(planSitemap(pages, origin, config, { maxBytes: maxBytes - 1 }).map((part) => part.count)).toEqual([
      1, 1, 1, 1, 1,
    ]);
  });

  it("with its parts streamed one by one, lists every URL exactly once, in order", async () => {
    const pages = [...numbered(10), ...numbered(4, "de"), { fullPath: "/p001", locale: "en" }];
    const parts = planSitemap(pages, origin, config, { maxUrls: 3 });
    expect(parts).toHaveLength(5);
    const listed: string[] = [];
    for (const part of parts) {
      const urls = locs((await read(sitemapStream(pages, origin, config, { part, chunkSize: 2 }))).text);
      expect(urls.length).toBeLessThanOrEqual(3);
      listed.push(...urls);
    }
    expect(listed).toEqual(locs((await read(sitemapStream(pages, origin, config))).text));
    expect(new Set(listed).size).toBe(14);
  });
});

describe("sitemapIndex", () => {
  it("lists each part's absolute URL with its lastmod when it has one", () => {
    expect(
      sitemapIndex(
        [
          { first: 0, count: 3, lastmod: "2026-01-04T00:00:00.000Z" },
          { first: 3, count: 1, lastmod: null },
        ],
        origin,
      ),
    ).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' +
        "<sitemap><loc>https://www.example.com/sitemap/1.xml</loc><lastmod>2026-01-04T00:00:00.000Z</lastmod></sitemap>\n" +
        "<sitemap><loc>https://www.example.com/sitemap/2.xml</loc></sitemap>\n" +
        "</sitemapindex>\n",
    );
  });
});

describe("part file names", () => {
  it("accept one spelling per part: /sitemap/<n>.xml, n from 1, no leading zero", () => {
    expect(sitemapPartNumber("1.xml")).toBe(1);
    expect(sitemapPartNumber("42.xml")).toBe(42);
    for (const segment of [
      "0.xml",
      "01.xml",
      "-1.xml",
      "1.XML",
      "1.json",
      "abc.xml",
      "1",
      "1.xml.gz",
      "1234567890.xml",
    ])
      expect(sitemapPartNumber(segment)).toBeNull();
    expect(isSitemapPartPath("/sitemap/2.xml")).toBe(true);
    expect(isSitemapPartPath("/sitemap/2.xml/")).toBe(false);
    expect(isSitemapPartPath("/de/sitemap/2.xml")).toBe(false);
    expect(isSitemapPartPath("/sitemap.xml")).toBe(false);
  });
});

describe("sitemapPartsBound: how many files a number of URLs can need, from the count alone", () => {
  it("leaves out a URL the protocol refuses (2,048 characters or more, as written)", () => {
    const room = SITEMAP_MAX_LOC_BYTES - origin.length - 1;
    expect(sitemapEntry({ fullPath: `/${"a".repeat(room)}`, locale: "en" }, origin, config)).toContain("<loc>");
    expect(sitemapEntry({ fullPath: `/${"a".repeat(room + 1)}`, locale: "en" }, origin, config)).toBe("");
    // Measured escaped: `&` is five bytes in the file.
    expect(sitemapEntry({ fullPath: `/${"&".repeat(Math.ceil(room / 5) + 1)}`, locale: "en" }, origin, config)).toBe(
      "",
    );
  });

  it("is never below the parts planSitemap makes, whatever the URLs' lengths and the limits", () => {
    let seed = 7;
    const random = (below: number) => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31), seed % below);
    for (let round = 0; round < 200; round += 1) {
      const count = 1 + random(40);
      const pages = Array.from({ length: count }, (_, index) => ({
        fullPath: `/${index}-${"x".repeat(random(3) === 0 ? random(SITEMAP_MAX_LOC_BYTES) : random(40))}`,
        locale: "en",
        updatedAt: random(2) ? "2026-01-01T00:00:00.000Z" : null,
      }));
      const limits = { maxUrls: 1 + random(10), maxBytes: 200 + random(20_000) };
      const planned = planSitemap(pages, origin, config, limits).length;
      expect(sitemapPartsBound(count, limits), JSON.stringify(limits)).toBeGreaterThanOrEqual(planned);
    }
  });

  it("with the protocol's limits: one file up to 24,777 URLs of any length, then a file for each 24,777 at most", () => {
    expect(sitemapPartsBound(0)).toBe(0);
    expect(sitemapPartsBound(1)).toBe(1);
    expect(sitemapPartsBound(24_777)).toBe(1);
    expect(sitemapPartsBound(24_778)).toBe(2);
    expect(sitemapPartsBound(1_000_000)).toBe(41);
    expect(sitemapPartsBound(10, { maxUrls: 3 })).toBe(4);
  });
});
