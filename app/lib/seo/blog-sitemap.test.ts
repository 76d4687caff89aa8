import { describe, expect, it } from "vitest";

import { blogSitemapPages } from "./blog-sitemap.ts";

describe("the blog's sitemap entries", () => {
  it("lists per locale the listing (newest lastmod), each article and each category with articles", () => {
    const pages = blogSitemapPages([
      { slug: "a", locale: "en", updatedAt: "2026-01-01T00:00:00.000Z", category: { slug: "news" } },
      { slug: "b", locale: "en", updatedAt: "2026-03-01T00:00:00.000Z", category: null },
      { slug: "c", locale: "en", updatedAt: "2026-02-01T00:00:00.000Z", category: { slug: "news" } },
      { slug: "a-de", locale: "de", updatedAt: null, category: { slug: "neuigkeiten" } },
    ]);
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
    expect(blogSitemapPages([])).toEqual([]);
  });
});
