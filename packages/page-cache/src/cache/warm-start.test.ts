import { describe, expect, it } from "vitest";

import { warmStart, type WarmStartSource } from "./warm-start.ts";

/** A source of `n` paths `/<prefix>0`, `/<prefix>1`, …; records how far it was read and whether it was closed. */
function counting(name: string, prefix: string, n: number) {
  const state = { read: 0, closed: false };
  const source: WarmStartSource = {
    name,
    paths: async function* () {
      try {
        for (let i = 0; i < n; i++) {
          state.read++;
          yield `/${prefix}${i}`;
        }
      } finally {
        state.closed = true;
      }
    },
  };
  return { source, state };
}

const blog: WarmStartSource = {
  name: "the blog's listings",
  paths: async function* () {
    yield* ["/blog", "/blog/rss.xml", "/de/blog", "/de/blog/rss.xml"];
  },
};

describe("warm start", () => {
  it("takes one path from each source in turn, at most `max`, never more than `concurrency` at once", async () => {
    let running = 0;
    let peak = 0;
    const seen: string[] = [];
    const lines: string[] = [];
    const pages = counting("pages", "p", 1_000);
    const articles = counting("articles", "blog/a", 1_000);
    const result = await warmStart({
      sources: [blog, pages.source, articles.source],
      request: async (path) => {
        running++;
        peak = Math.max(peak, running);
        seen.push(path);
        await new Promise((resolve) => setImmediate(resolve));
        running--;
      },
      max: 50,
      concurrency: 4,
      log: (line) => lines.push(line),
    });
    expect(result).toEqual({ warmed: 50, failed: 0, unlisted: [] });
    expect(seen).toHaveLength(50);
    // The blog's four first (in turn with the others), then pages and articles alternately.
    expect(seen.slice(0, 9)).toEqual([
      "/blog",
      "/p0",
      "/blog/a0",
      "/blog/rss.xml",
      "/p1",
      "/blog/a1",
      "/de/blog",
      "/p2",
      "/blog/a2",
    ]);
    expect(seen.filter((path) => path.startsWith("/p"))).toHaveLength(23);
    expect(seen.filter((path) => path.startsWith("/blog/a"))).toHaveLength(23);
    expect(peak).toBe(4);
    // The listings were read no further than needed, and closed.
    expect(pages.state).toEqual({ read: 23, closed: true });
    expect(articles.state).toEqual({ read: 23, closed: true });
    expect(lines).toEqual(["[cache] warm start: 50 page(s) requested"]);
  });

  it("counts only what it requested: no path (''), a path listed twice, a short source", async () => {
    const seen: string[] = [];
    const lines: string[] = [];
    const result = await warmStart({
      sources: [
        blog,
        {
          name: "pages",
          paths: async function* () {
            yield* ["/a", "", "/blog", "/b"];
          },
        },
      ],
      request: async (path) => void seen.push(path),
      max: 100,
      concurrency: 2,
      log: (line) => lines.push(line),
    });
    expect([...seen].sort()).toEqual(["/a", "/b", "/blog", "/blog/rss.xml", "/de/blog", "/de/blog/rss.xml"]);
    expect(result).toEqual({ warmed: 6, failed: 0, unlisted: [] });
    expect(lines).toEqual(["[cache] warm start: 6 page(s) requested"]);
  });

  it("a source the CMS cannot list is left out (and said so), the others go on; failed requests are counted", async () => {
    const lines: string[] = [];
    const seen: string[] = [];
    const broken = await warmStart({
      sources: [
        {
          name: "the newest articles",
          paths: async function* () {
            yield* [];
            throw new Error("CMS answered 404");
          },
        },
        counting("pages", "p", 3).source,
      ],
      request: async (path) => void seen.push(path),
      max: 10,
      concurrency: 2,
      log: (line) => lines.push(line),
    });
    expect(broken).toEqual({ warmed: 3, failed: 0, unlisted: ["the newest articles: CMS answered 404"] });
    expect(seen).toEqual(["/p0", "/p1", "/p2"]);
    expect(lines).toEqual([
      "[cache] warm start: 3 page(s) requested; could not list the newest articles: CMS answered 404",
    ]);

    const failing = await warmStart({
      sources: [counting("pages", "p", 3).source],
      request: async () => Promise.reject(new Error("no")),
      max: 10,
      concurrency: 2,
      log: (line) => lines.push(line),
    });
    expect(failing).toEqual({ warmed: 0, failed: 3, unlisted: [] });
    expect(lines.at(-1)).toBe("[cache] warm start: 0 page(s) requested, 3 failed");
  });
});
