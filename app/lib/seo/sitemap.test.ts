import { describe, expect, it } from "vitest";

import { escapeXml, lastmodOf, SITEMAP_MAX_URLS, sitemapEntry, sitemapStream, type SitemapPage } from "./sitemap.ts";

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

  it("stops at the protocol's 50,000 URLs and says how many were left out", async () => {
    const pages = Array.from({ length: SITEMAP_MAX_URLS + 3 }, (_, index) => ({
      fullPath: `/p${index}`,
      locale: "en",
    }));
    let leftOut = 0;
    const { text } = await read(sitemapStream(pages, origin, config, { onOverflow: (count) => (leftOut = count) }));
    expect(text.match(/<url>/g)).toHaveLength(SITEMAP_MAX_URLS);
    expect(leftOut).toBe(3);
  });
});
