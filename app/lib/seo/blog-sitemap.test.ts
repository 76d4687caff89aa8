import { describe, expect, it } from "vitest";

import { blogSitemapEntriesBound, blogSitemapPages } from "./blog-sitemap.ts";

describe("the blog's sitemap entries", () => {
  it("lists per locale the listing (newest lastmod), each article and each category with articles", () => {
    const pages = blogSitemapPages(
      [
        { slug: "a", locale: "en", updatedAt: "2026-01-01T00:00:00.000Z", category: { slug: "news" } },
        { slug: "b", locale: "en", updatedAt: "2026-03-01T00:00:00.000Z", category: null },
        { slug: "c", locale: "en", updatedAt: "2026-02-01T00:00:00.000Z", category: { slug: "news" } },
        { slug: "a-de", locale: "de", updatedAt: null, category: { slug: "neuigkeiten" } },
      ],
      { perPage: 10 },
    );
    expect(pages).toEqual([
      { fullPath: "/blog", locale: "en", updatedAt: "2026-03-01T00:00:00.000Z" },
      { fullPath: "/blog", locale: "de", updatedAt: null },
      { fullPath: "/blog/a", locale: "en", updatedAt: "2026-01-01T00:00:00.000Z" },
      { fullPath: "/blog/b", locale: "en", updatedAt: "2026-03-01T00:00:00.000Z" },
      { fullPath: "/blog/c", locale: "en", updatedAt: "2026-02-01T00:00:00.000Z" },
      { fullPath: "/blog/a-de", locale: "de", updatedAt: null },
      { fullPath: "/blog/category/news", locale: "en", updatedAt: "2026-02-01T00:00:00.000Z" },
      { fullPath: "/blog/category/neuigkeiten", locale: "de", updatedAt: null },
    ]);
  });

  it("has nothing for a blog without articles", () => {
    expect(blogSitemapPages([], { perPage: 10 })).toEqual([]);
  });

  it("lists a listing's later pages (?page=N) as many as its articles fill, the category's too", () => {
    const article = (i: number, category: string | null) => ({
      slug: `a${i}`,
      locale: "en",
      updatedAt: `2026-01-${String(i).padStart(2, "0")}T00:00:00.000Z`,
      category: category ? { slug: category } : null,
    });
    // 7 articles, 3 a page: /blog has 3 pages; "news" (5) 2, "tips" (1) 1; "de" (3) exactly 1.
    const articles = [
      ...[1, 2, 3, 4, 5].map((i) => article(i, "news")),
      article(6, "tips"),
      article(7, null),
      ...[1, 2, 3].map((i) => ({ slug: `d${i}`, locale: "de", updatedAt: null, category: null })),
    ];
    const pages = blogSitemapPages(articles, { perPage: 3 });
    const listings = pages.filter((page) => !/^\/blog\/(?!category\/)/.test(page.fullPath));
    expect(listings).toEqual([
      { fullPath: "/blog", locale: "en", updatedAt: "2026-01-07T00:00:00.000Z" },
      { fullPath: "/blog", locale: "en", updatedAt: "2026-01-07T00:00:00.000Z", page: 2 },
      { fullPath: "/blog", locale: "en", updatedAt: "2026-01-07T00:00:00.000Z", page: 3 },
      { fullPath: "/blog", locale: "de", updatedAt: null },
      { fullPath: "/blog/category/news", locale: "en", updatedAt: "2026-01-05T00:00:00.000Z" },
      { fullPath: "/blog/category/news", locale: "en", updatedAt: "2026-01-05T00:00:00.000Z", page: 2 },
      { fullPath: "/blog/category/tips", locale: "en", updatedAt: "2026-01-06T00:00:00.000Z" },
    ]);
    expect(pages).toHaveLength(listings.length + articles.length);
  });

  it("refuses a page size that is not a positive whole number", () => {
    expect(() => blogSitemapPages([], { perPage: 0 })).toThrow(RangeError);
  });
});

describe("blogSitemapEntriesBound: the most entries a number of articles can make", () => {
  it("is never below blogSitemapPages's count, whatever the locales and categories", () => {
    let seed = 11;
    const random = (below: number) => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31), seed % below);
    for (let round = 0; round < 300; round += 1) {
      const locales = ["en", "de", "fr"].slice(0, 1 + random(3));
      const perPage = 1 + random(12);
      const articles = Array.from({ length: random(60) }, (_, index) => {
        const categories = random(4) === 0 ? index : random(5);
        return {
          slug: `a${index}`,
          locale: locales[random(locales.length)]!,
          category: random(3) === 0 ? null : { slug: `c${categories}` },
        };
      });
      const made = blogSitemapPages(articles, { perPage }).length;
      expect(blogSitemapEntriesBound(articles.length, { perPage, locales: locales.length })).toBeGreaterThanOrEqual(
        made,
      );
    }
    expect(blogSitemapEntriesBound(0, { perPage: 10, locales: 2 })).toBe(0);
  });
});
