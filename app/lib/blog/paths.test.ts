import { describe, expect, it } from "vitest";

import { blogPath, canonicalPageParam, isBlogFeedPath, listingPagePath, parsePageParam } from "./paths.ts";

describe("blog paths", () => {
  it("spells the blog's addresses", () => {
    expect(blogPath()).toBe("/blog");
    expect(blogPath({ slug: "acme-3" })).toBe("/blog/acme-3");
    expect(blogPath({ category: "news" })).toBe("/blog/category/news");
    expect(blogPath({ feed: true })).toBe("/blog/rss.xml");
    expect(listingPagePath("/de/blog", 1)).toBe("/de/blog");
    expect(listingPagePath("/de/blog", 3)).toBe("/de/blog?page=3");
  });

  it("reads ?page=: absent is 1, plain positive numbers are pages, anything else none", () => {
    expect(parsePageParam(null)).toBe(1);
    expect(parsePageParam("1")).toBe(1);
    expect(parsePageParam("2")).toBe(2);
    expect(parsePageParam("02")).toBe(2);
    expect(parsePageParam("999999")).toBe(999999);
    for (const junk of ["", "abc", "0", "00", "-1", "+1", "1.5", "1e3", " 2", "2 ", "0x10", "1000000", "2abc"]) {
      expect(parsePageParam(junk), junk).toBeNull();
    }
  });

  it("gives the page cache one spelling per page and one for every invalid value", () => {
    expect(canonicalPageParam("2")).toBe("2");
    expect(canonicalPageParam("0002")).toBe("2");
    expect(new Set(["abc", "x", "-1", "", "1e9", "99999999"].map(canonicalPageParam))).toEqual(new Set(["0"]));
    // "0" is itself invalid: the listing answers it 404.
    expect(parsePageParam(canonicalPageParam("abc"))).toBeNull();
  });

  it("knows the feed's addresses, in any locale", () => {
    expect(isBlogFeedPath("/blog/rss.xml")).toBe(true);
    expect(isBlogFeedPath("/de/blog/rss.xml")).toBe(true);
    expect(isBlogFeedPath("/blog/rss.xml/x")).toBe(false);
    expect(isBlogFeedPath("/a/b/blog/rss.xml")).toBe(false);
    expect(isBlogFeedPath("/blog/other.xml")).toBe(false);
  });
});
