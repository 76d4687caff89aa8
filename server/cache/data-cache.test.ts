import { describe, expect, it } from "vitest";

import { DataCache } from "./data-cache.ts";
import { Invalidations } from "./invalidations.ts";
import { MemoryStore } from "./memory-store.ts";

function setup() {
  let now = 5_000_000;
  const clock = { now: () => now, advance: (ms: number) => (now += ms) };
  const invalidations = new Invalidations(clock.now);
  const cache = new DataCache(new MemoryStore<unknown>(1_000_000), invalidations, clock.now);
  return { clock, invalidations, cache };
}

const meta = { path: "/en/careers", tags: ["cms:api::navbar.navbar"], revalidate: 120 };

describe("CMS data cache", () => {
  it("reuses an answer for its interval, then fetches again", async () => {
    const { cache, clock } = setup();
    let fetches = 0;
    const fetchFresh = async () => ++fetches;
    expect(await cache.load("k", meta, fetchFresh)).toBe(1);
    clock.advance(119_999);
    expect(await cache.load("k", meta, fetchFresh)).toBe(1);
    clock.advance(1);
    expect(await cache.load("k", meta, fetchFresh)).toBe(2);
  });

  it("never hands out stale data: after a path or tag invalidation it waits for a fresh answer", async () => {
    const { cache, invalidations } = setup();
    let value = "old";
    const fetchFresh = async () => value;
    await cache.load("k", meta, fetchFresh);
    value = "new";
    invalidations.revalidatePath("/en/careers");
    expect(await cache.load("k", meta, fetchFresh)).toBe("new");
    value = "newer";
    invalidations.revalidateTag("cms:api::navbar.navbar");
    expect(await cache.load("k", meta, fetchFresh)).toBe("newer");
    value = "newest";
    invalidations.revalidatePath("/en/*");
    expect(await cache.load("k", meta, fetchFresh)).toBe("newest");
  });

  it("concurrent callers share one fetch, unless an invalidation came after it began", async () => {
    const { cache, invalidations, clock } = setup();
    const resolvers: Array<(value: string) => void> = [];
    const fetchFresh = () => new Promise<string>((resolve) => resolvers.push(resolve));
    const first = cache.load("k", meta, fetchFresh);
    const joined = cache.load("k", meta, fetchFresh);
    expect(resolvers).toHaveLength(1);

    clock.advance(5);
    invalidations.revalidateTag("cms:api::navbar.navbar");
    const afterInvalidation = cache.load("k", meta, fetchFresh);
    expect(resolvers).toHaveLength(2);

    resolvers[0]?.("before");
    resolvers[1]?.("after");
    expect(await first).toBe("before");
    expect(await joined).toBe("before");
    expect(await afterInvalidation).toBe("after");
  });

  it("after an expiring invalidation (a takedown) too: never the old data, and a fetch begun before it is not joined", async () => {
    const { cache, invalidations } = setup();
    await cache.load("k", meta, async () => "published");
    const resolvers: Array<(value: string) => void> = [];
    const fetchFresh = () => new Promise<string>((resolve) => resolvers.push(resolve));
    invalidations.revalidateTag("cms:api::navbar.navbar");
    const before = cache.load("k", meta, fetchFresh);
    invalidations.revalidatePath("/en/careers", { expire: true });
    const after = cache.load("k", meta, fetchFresh);
    expect(resolvers).toHaveLength(2);
    resolvers[0]?.("published (fetched before the takedown)");
    resolvers[1]?.("not found");
    expect(await before).toBe("published (fetched before the takedown)");
    expect(await after).toBe("not found");
  });

  it("lets a failed fetch fail, and keeps nothing from it", async () => {
    const { cache } = setup();
    await expect(cache.load("k", meta, () => Promise.reject(new Error("CMS down")))).rejects.toThrow("CMS down");
    expect(await cache.load("k", meta, async () => "recovered")).toBe("recovered");
  });
});
