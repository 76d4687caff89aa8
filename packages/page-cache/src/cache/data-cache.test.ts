import { describe, expect, it } from "vitest";

import { DataCache, type Recorded } from "./data-cache.ts";
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
/** An answer recorded with the tags known before it (what the tests here invalidate). */
const recorded = <T>(value: T): Recorded<T> => ({ value, tags: meta.tags });
const valueOf = async <T>(answer: Promise<Recorded<T>>) => (await answer).value;

describe("CMS data cache", () => {
  it("reuses an answer for its interval, then fetches again", async () => {
    const { cache, clock } = setup();
    let fetches = 0;
    const fetchFresh = async () => recorded(++fetches);
    expect(await valueOf(cache.load("k", meta, fetchFresh))).toBe(1);
    clock.advance(119_999);
    expect(await valueOf(cache.load("k", meta, fetchFresh))).toBe(1);
    clock.advance(1);
    expect(await valueOf(cache.load("k", meta, fetchFresh))).toBe(2);
  });

  it("never hands out stale data: after a path or tag invalidation it waits for a fresh answer", async () => {
    const { cache, invalidations } = setup();
    let value = "old";
    const fetchFresh = async () => recorded(value);
    await cache.load("k", meta, fetchFresh);
    value = "new";
    invalidations.revalidatePath("/en/careers");
    expect(await valueOf(cache.load("k", meta, fetchFresh))).toBe("new");
    value = "newer";
    invalidations.revalidateTag("cms:api::navbar.navbar");
    expect(await valueOf(cache.load("k", meta, fetchFresh))).toBe("newer");
    value = "newest";
    invalidations.revalidatePath("/en/*");
    expect(await valueOf(cache.load("k", meta, fetchFresh))).toBe("newest");
  });

  it("concurrent callers share one fetch, unless an invalidation came after it began", async () => {
    const { cache, invalidations, clock } = setup();
    const resolvers: Array<(value: string) => void> = [];
    const fetchFresh = () => new Promise<string>((resolve) => resolvers.push(resolve)).then(recorded);
    const first = valueOf(cache.load("k", meta, fetchFresh));
    const joined = valueOf(cache.load("k", meta, fetchFresh));
    expect(resolvers).toHaveLength(1);

    clock.advance(5);
    invalidations.revalidateTag("cms:api::navbar.navbar");
    const afterInvalidation = valueOf(cache.load("k", meta, fetchFresh));
    expect(resolvers).toHaveLength(2);

    resolvers[0]?.("before");
    resolvers[1]?.("after");
    expect(await first).toBe("before");
    expect(await joined).toBe("before");
    expect(await afterInvalidation).toBe("after");
  });

  it("after an expiring invalidation (a takedown) too: never the old data, and a fetch begun before it is not joined", async () => {
    const { cache, invalidations } = setup();
    await cache.load("k", meta, async () => recorded("published"));
    const resolvers: Array<(value: string) => void> = [];
    const fetchFresh = () => new Promise<string>((resolve) => resolvers.push(resolve)).then(recorded);
    invalidations.revalidateTag("cms:api::navbar.navbar");
    const before = valueOf(cache.load("k", meta, fetchFresh));
    invalidations.revalidatePath("/en/careers", { expire: true });
    const after = valueOf(cache.load("k", meta, fetchFresh));
    expect(resolvers).toHaveLength(2);
    resolvers[0]?.("published (fetched before the takedown)");
    resolvers[1]?.("not found");
    expect(await before).toBe("published (fetched before the takedown)");
    expect(await after).toBe("not found");
  });

  it("lets a failed fetch fail, and keeps nothing from it", async () => {
    const { cache } = setup();
    await expect(cache.load("k", meta, () => Promise.reject(new Error("CMS down")))).rejects.toThrow("CMS down");
    expect(await valueOf(cache.load("k", meta, async () => recorded("recovered")))).toBe("recovered");
  });

  it("keeps each answer with the tags recorded from it: they make it stale, and a hit reports them", async () => {
    const { cache, invalidations } = setup();
    let version = 1;
    const fetchFresh = async () => ({ value: version, tags: ["cms:t", "cms:t:doc1"] });
    expect(await cache.load("k", { ...meta, tags: ["cms:t"] }, fetchFresh)).toEqual({
      value: 1,
      tags: ["cms:t", "cms:t:doc1"],
    });
    version = 2;
    expect(await cache.load("k", { ...meta, tags: ["cms:t"] }, fetchFresh)).toEqual({
      value: 1,
      tags: ["cms:t", "cms:t:doc1"],
    });
    // A tag known only from the answer (a document in it) makes the entry stale.
    invalidations.revalidateTag("cms:t:doc1");
    expect((await cache.load("k", { ...meta, tags: ["cms:t"] }, fetchFresh)).value).toBe(2);
  });

  it("a caller that joined a fetch gets a fresh one when a document in its answer was invalidated meanwhile", async () => {
    const { cache, invalidations, clock } = setup();
    const resolvers: Array<(answer: Recorded<string>) => void> = [];
    const fetchFresh = () => new Promise<Recorded<string>>((resolve) => resolvers.push(resolve));
    const known = { ...meta, tags: ["cms:t"] };
    const first = cache.load("k", known, fetchFresh);
    clock.advance(5);
    // Before the answer nobody knows it holds doc1: the second caller joins.
    invalidations.revalidateTag("cms:t:doc1");
    const joined = cache.load("k", known, fetchFresh);
    expect(resolvers).toHaveLength(1);
    resolvers[0]?.({ value: "read before the edit", tags: ["cms:t", "cms:t:doc1"] });
    expect((await first).value).toBe("read before the edit");
    await expect.poll(() => resolvers.length).toBe(2);
    resolvers[1]?.({ value: "after the edit", tags: ["cms:t", "cms:t:doc1"] });
    expect((await joined).value).toBe("after the edit");
  });
});
