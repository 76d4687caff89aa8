import { describe, expect, it } from "vitest";

import type { PageRef } from "../../app/lib/cms/content.server.ts";
import { warmStart } from "./warm-start.ts";

async function* pages(n: number): AsyncGenerator<PageRef> {
  for (let i = 0; i < n; i++) yield { fullPath: `/p${i}`, locale: i % 2 ? "de" : "en" };
}

describe("warm start", () => {
  it("requests at most `max` pages, never more than `concurrency` at once", async () => {
    let running = 0;
    let peak = 0;
    const seen: string[] = [];
    const result = await warmStart({
      pages: () => pages(1_000),
      pathOf: (page) => (page.locale === "en" ? page.fullPath : `/${page.locale}${page.fullPath}`),
      request: async (path) => {
        running++;
        peak = Math.max(peak, running);
        seen.push(path);
        await new Promise((resolve) => setImmediate(resolve));
        running--;
      },
      max: 50,
      concurrency: 4,
      log: () => {},
    });
    expect(result).toEqual({ warmed: 50, failed: 0 });
    expect(seen).toHaveLength(50);
    expect(seen.slice(0, 2)).toEqual(["/p0", "/de/p1"]);
    expect(peak).toBe(4);
  });

  it("a CMS that cannot list its pages, or pages that fail, skip the warm start without failing", async () => {
    const lines: string[] = [];
    const broken = await warmStart({
      pages: async function* () {
        yield* [];
        throw new Error("CMS down");
      },
      pathOf: (page) => page.fullPath,
      request: async () => undefined,
      max: 10,
      concurrency: 2,
      log: (line) => lines.push(line),
    });
    expect(broken).toEqual({ warmed: 0, failed: 0 });
    expect(lines[0]).toMatch(/could not list/);
    const failing = await warmStart({
      pages: () => pages(3),
      pathOf: (page) => page.fullPath,
      request: async () => Promise.reject(new Error("no")),
      max: 10,
      concurrency: 2,
      log: () => {},
    });
    expect(failing).toEqual({ warmed: 0, failed: 3 });
  });
});
