import { describe, expect, it } from "vitest";

import { Invalidations } from "./invalidations.ts";
import { IsrCache, type Rendered } from "./isr-cache.ts";
import { MemoryStore } from "./memory-store.ts";

function setup(maxBytes = 1_000_000) {
  let now = 1_000_000;
  const clock = { now: () => now, advance: (ms: number) => (now += ms) };
  const invalidations = new Invalidations(clock.now);
  const store = new MemoryStore<string>(maxBytes);
  const cache = new IsrCache<string>({ store, invalidations, now: clock.now, retryDelayMs: 1_000 });
  return { clock, invalidations, store, cache };
}

/** A render we control: resolves when told, counts its calls. */
function controlledRender(values: string[], extra: Partial<Rendered<string>> = {}) {
  let calls = 0;
  const pending: Array<() => void> = [];
  const render = () => {
    const value = values[Math.min(calls, values.length - 1)] ?? "";
    calls++;
    return new Promise<Rendered<string>>((resolve) => {
      pending.push(() =>
        resolve({
          value,
          cacheable: true,
          tags: ["cms:api::navbar.navbar"],
          revalidate: 300,
          size: value.length,
          ...extra,
        }),
      );
    });
  };
  return {
    render,
    calls: () => calls,
    finishAll: async () => {
      while (pending.length) pending.shift()?.();
      await new Promise((resolve) => setTimeout(resolve, 0));
    },
  };
}

const immediate =
  (value: string, extra: Partial<Rendered<string>> = {}) =>
  async (): Promise<Rendered<string>> => ({
    value,
    cacheable: true,
    tags: [],
    revalidate: 300,
    size: value.length,
    ...extra,
  });

describe("ISR cache", () => {
  it("renders a miss once, then serves hits until the interval elapses", async () => {
    const { cache, clock } = setup();
    expect((await cache.get("/a", "/a", immediate("v1"))).status).toBe("MISS");
    clock.advance(299_999);
    expect(await cache.get("/a", "/a", immediate("v2"))).toMatchObject({ status: "HIT", value: "v1" });
    clock.advance(1);
    expect(await cache.get("/a", "/a", immediate("v2"))).toMatchObject({ status: "STALE", value: "v1" });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(await cache.get("/a", "/a", immediate("v3"))).toMatchObject({ status: "HIT", value: "v2" });
  });

  it("a tag invalidation makes every entry with that tag stale, and only those", async () => {
    const { cache, invalidations } = setup();
    await cache.get("/a", "/a", immediate("a", { tags: ["cms:api::navbar.navbar"] }));
    await cache.get("/b", "/b", immediate("b", { tags: ["cms:api::navbar.navbar", "cms:api::footer.footer"] }));
    await cache.get("/c", "/c", immediate("c", { tags: ["cms:api::footer.footer"] }));
    invalidations.revalidateTag("cms:api::navbar.navbar");
    expect((await cache.get("/a", "/a", immediate("a2"))).status).toBe("STALE");
    expect((await cache.get("/b", "/b", immediate("b2"))).status).toBe("STALE");
    expect((await cache.get("/c", "/c", immediate("c2"))).status).toBe("HIT");
  });

  it("a path invalidation makes that path stale, a wildcard every path below it", async () => {
    const { cache, invalidations } = setup();
    for (const path of ["/jobs", "/jobs/a", "/jobs/a/b", "/company"]) await cache.get(path, path, immediate(path));
    invalidations.revalidatePath("/company");
    expect((await cache.get("/company", "/company", immediate("x"))).status).toBe("STALE");
    expect((await cache.get("/jobs", "/jobs", immediate("x"))).status).toBe("HIT");

    invalidations.revalidatePath("/jobs/*");
    expect((await cache.get("/jobs/a", "/jobs/a", immediate("x"))).status).toBe("STALE");
    expect((await cache.get("/jobs/a/b", "/jobs/a/b", immediate("x"))).status).toBe("STALE");
    expect((await cache.get("/jobs", "/jobs", immediate("x"))).status).toBe("HIT");
  });

  it("an invalidation during a render leaves the new entry stale: nothing is lost to the race", async () => {
    const { cache, invalidations, clock } = setup();
    const first = controlledRender(["old"]);
    const miss = cache.get("/a", "/a", first.render);
    clock.advance(10);
    invalidations.revalidatePath("/a"); // the CMS published while we were rendering
    clock.advance(10);
    await first.finishAll();
    // Answered, but as STALE: what a publish overtook must not be kept by a CDN (decision 0028).
    expect(await miss).toMatchObject({ status: "STALE", value: "old" });

    const second = controlledRender(["new"]);
    expect(await cache.get("/a", "/a", second.render)).toMatchObject({ status: "STALE", value: "old" });
    expect(second.calls()).toBe(1);
    await second.finishAll();
    expect(await cache.get("/a", "/a", second.render)).toMatchObject({ status: "HIT", value: "new" });
  });

  it("100 concurrent requests on a stale key start exactly one regeneration", async () => {
    const { cache, invalidations } = setup();
    await cache.get("/a", "/a", immediate("v1", { tags: ["t"] }));
    invalidations.revalidateTag("t");
    const regeneration = controlledRender(["v2"]);
    const results = await Promise.all(Array.from({ length: 100 }, () => cache.get("/a", "/a", regeneration.render)));
    expect(results.every((result) => result.status === "STALE" && result.value === "v1")).toBe(true);
    expect(regeneration.calls()).toBe(1);
    await regeneration.finishAll();
    expect(cache.counters.regenerations).toBe(1);
    expect(await cache.get("/a", "/a", regeneration.render)).toMatchObject({ status: "HIT", value: "v2" });
  });

  it("callers who joined a render an invalidation overtook get it as STALE too", async () => {
    const { cache, invalidations, clock } = setup();
    const render = controlledRender(["old"]);
    const first = cache.get("/a", "/a", render.render);
    const joined = cache.get("/a", "/a", render.render);
    clock.advance(10);
    invalidations.revalidateTag("cms:api::navbar.navbar");
    await render.finishAll();
    expect(render.calls()).toBe(1);
    expect(await first).toMatchObject({ status: "STALE", value: "old" });
    expect(await joined).toMatchObject({ status: "STALE", value: "old" });
  });

  it("100 concurrent misses render once and all get that result", async () => {
    const { cache } = setup();
    const render = controlledRender(["v1", "v2"]);
    const waiting = Promise.all(Array.from({ length: 100 }, () => cache.get("/a", "/a", render.render)));
    await render.finishAll();
    const results = await waiting;
    expect(render.calls()).toBe(1);
    expect(new Set(results.map((result) => `${result.status}:${result.value}`))).toEqual(new Set(["MISS:v1"]));
  });

  it("stale-if-error: a failed regeneration keeps the stale entry and retries with backoff", async () => {
    const { cache, invalidations, clock } = setup();
    await cache.get("/a", "/a", immediate("good"));
    invalidations.revalidatePath("/a");
    let attempts = 0;
    const failing = async (): Promise<Rendered<string>> => {
      attempts++;
      return { value: "503 page", cacheable: false, failed: true, tags: [], revalidate: 300, size: 8 };
    };
    const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

    expect(await cache.get("/a", "/a", failing)).toMatchObject({ status: "STALE", value: "good" });
    await settle();
    expect(attempts).toBe(1);
    // Within the first backoff (1 s) no new attempt, still the stale page.
    clock.advance(500);
    expect(await cache.get("/a", "/a", failing)).toMatchObject({ status: "STALE", value: "good" });
    await settle();
    expect(attempts).toBe(1);
    clock.advance(600);
    await cache.get("/a", "/a", failing);
    await settle();
    expect(attempts).toBe(2);
    // The second failure doubles the wait to 2 s.
    clock.advance(1_500);
    await cache.get("/a", "/a", failing);
    await settle();
    expect(attempts).toBe(2);
    clock.advance(600);
    await cache.get("/a", "/a", immediate("recovered"));
    await settle();
    expect(cache.counters.regenerationFailures).toBe(2);
    expect(await cache.get("/a", "/a", failing)).toMatchObject({ status: "HIT", value: "recovered" });
  });

  it("never stores an uncacheable render: a miss renders again next time", async () => {
    const { cache } = setup();
    const personal = immediate("for one user", { cacheable: false });
    expect((await cache.get("/a", "/a", personal)).status).toBe("MISS");
    expect((await cache.get("/a", "/a", personal)).status).toBe("MISS");
    const error = immediate("500", { cacheable: false, failed: true });
    expect(await cache.get("/b", "/b", error)).toMatchObject({ status: "MISS", failed: true });
    expect((await cache.get("/b", "/b", immediate("ok"))).status).toBe("MISS");
  });

  it("keeps memory within its byte bound, evicting the least recently used", async () => {
    const { cache, store } = setup(100);
    await cache.get("/a", "/a", immediate("a".repeat(40)));
    await cache.get("/b", "/b", immediate("b".repeat(40)));
    await cache.get("/a", "/a", immediate("unused")); // touch /a: /b is now the oldest
    await cache.get("/c", "/c", immediate("c".repeat(40)));
    expect(store.byteSize).toBe(80);
    expect((await cache.get("/a", "/a", immediate("x"))).status).toBe("HIT");
    expect((await cache.get("/b", "/b", immediate("x"))).status).toBe("MISS");
  });
});

describe("ISR cache: expiring invalidations (takedowns)", () => {
  it("an entry hit by an expiring invalidation is never served again: the next caller gets a fresh render (MISS)", async () => {
    const { cache, invalidations } = setup();
    await cache.get("/a", "/a", immediate("the page"));
    invalidations.revalidatePath("/a", { expire: true });
    expect(cache.peekFresh("/a")).toBeUndefined();
    expect(await cache.get("/a", "/a", immediate("404", { tags: [] }))).toMatchObject({ status: "MISS", value: "404" });
    expect(await cache.get("/a", "/a", immediate("unused"))).toMatchObject({ status: "HIT", value: "404" });
    expect(cache.counters).toMatchObject({ stale: 0, expired: 1 });
  });

  it("a tag expired hard takes every page carrying it; a stale-while-revalidate one still serves them STALE", async () => {
    const { cache, invalidations } = setup();
    await cache.get("/a", "/a", immediate("a", { tags: ["t"] }));
    await cache.get("/b", "/b", immediate("b", { tags: ["t"] }));
    invalidations.revalidateTag("t");
    expect((await cache.get("/a", "/a", immediate("a2", { tags: ["t"] }))).status).toBe("STALE");
    invalidations.revalidateTag("t", { expire: true });
    expect(await cache.get("/a", "/a", immediate("a3", { tags: ["t"] }))).toMatchObject({
      status: "MISS",
      value: "a3",
    });
    expect(await cache.get("/b", "/b", immediate("b3", { tags: ["t"] }))).toMatchObject({
      status: "MISS",
      value: "b3",
    });
  });

  it("100 concurrent callers after a takedown wait for one render and all get it, none the old page", async () => {
    const { cache, invalidations } = setup();
    await cache.get("/a", "/a", immediate("old"));
    invalidations.revalidatePath("/a", { expire: true });
    const render = controlledRender(["new"]);
    const waiting = Promise.all(Array.from({ length: 100 }, () => cache.get("/a", "/a", render.render)));
    await render.finishAll();
    const results = await waiting;
    expect(render.calls()).toBe(1);
    expect(new Set(results.map((result) => `${result.status}:${result.value}`))).toEqual(new Set(["MISS:new"]));
  });

  it("a render begun before the takedown is not joined by callers after it, and its result is not stored", async () => {
    const { cache, invalidations } = setup();
    const before = controlledRender(["rendered before the takedown"]);
    const early = cache.get("/a", "/a", before.render);
    invalidations.revalidatePath("/a", { expire: true });
    const after = controlledRender(["rendered after the takedown"]);
    const late = cache.get("/a", "/a", after.render);
    expect(after.calls()).toBe(1);
    await before.finishAll();
    await after.finishAll();
    // The early caller asked before the takedown: it gets its render, but not as a cache entry.
    const earlyResult = await early;
    expect(earlyResult).toMatchObject({ status: "MISS", value: "rendered before the takedown" });
    expect(earlyResult.entry).toBeUndefined();
    expect(await late).toMatchObject({ status: "MISS", value: "rendered after the takedown" });
    expect(await cache.get("/a", "/a", immediate("unused"))).toMatchObject({
      status: "HIT",
      value: "rendered after the takedown",
    });
  });

  it("a background regeneration under way when the takedown lands is not joined either", async () => {
    const { cache, invalidations } = setup();
    await cache.get("/a", "/a", immediate("v1"));
    invalidations.revalidatePath("/a");
    const regeneration = controlledRender(["v2, begun before the takedown"]);
    expect((await cache.get("/a", "/a", regeneration.render)).status).toBe("STALE");
    invalidations.revalidatePath("/a", { expire: true });
    const after = controlledRender(["404"]);
    const late = cache.get("/a", "/a", after.render);
    await regeneration.finishAll();
    await after.finishAll();
    expect(await late).toMatchObject({ status: "MISS", value: "404" });
    expect(await cache.get("/a", "/a", immediate("unused"))).toMatchObject({ status: "HIT", value: "404" });
  });

  it("a failed render after a takedown is answered as failed, never with the old page (no stale-if-error)", async () => {
    const { cache, invalidations } = setup();
    await cache.get("/a", "/a", immediate("old"));
    invalidations.revalidatePath("/a", { expire: true });
    const failing = immediate("503 page", { cacheable: false, failed: true });
    expect(await cache.get("/a", "/a", failing)).toMatchObject({ status: "MISS", value: "503 page", failed: true });
    expect(await cache.get("/a", "/a", failing)).toMatchObject({ status: "MISS", value: "503 page", failed: true });
    expect((await cache.get("/a", "/a", immediate("back"))).value).toBe("back");
  });
});

describe("ISR cache: a not-found answer hit by an invalidation (a publish at its address)", () => {
  function withNotFound() {
    let now = 1_000_000;
    const clock = { now: () => now, advance: (ms: number) => (now += ms) };
    const invalidations = new Invalidations(clock.now);
    const store = new MemoryStore<string>(1_000_000);
    const cache = new IsrCache<string>({
      store,
      invalidations,
      now: clock.now,
      expiresWhenInvalidated: (value) => value.startsWith("404"),
    });
    return { clock, invalidations, cache };
  }

  it("the next caller after a path or tag revalidation gets the new render (MISS), never the 404 STALE", async () => {
    const { cache, invalidations } = withNotFound();
    await cache.get("/new", "/new", immediate("404 not found", { tags: ["cms:api::page.page"] }));
    expect((await cache.get("/new", "/new", immediate("unused"))).status).toBe("HIT");
    invalidations.revalidatePath("/new");
    expect(await cache.get("/new", "/new", immediate("200 the new page"))).toMatchObject({
      status: "MISS",
      value: "200 the new page",
    });
    expect(cache.counters.expired).toBe(1);

    await cache.get("/blog?page=9", "/blog", immediate("404 no such page", { tags: ["cms:list"] }));
    invalidations.revalidateTag("cms:list");
    expect((await cache.get("/blog?page=9", "/blog", immediate("200 page 9"))).value).toBe("200 page 9");
  });

  it("a found page stays stale-while-revalidate; a 404 past its interval alone is served stale as before", async () => {
    const { cache, invalidations, clock } = withNotFound();
    await cache.get("/a", "/a", immediate("200 old"));
    invalidations.revalidatePath("/a");
    expect(await cache.get("/a", "/a", immediate("200 new"))).toMatchObject({ status: "STALE", value: "200 old" });
    await cache.get("/gone", "/gone", immediate("404 not found"));
    clock.advance(300_000);
    expect(await cache.get("/gone", "/gone", immediate("404 again"))).toMatchObject({
      status: "STALE",
      value: "404 not found",
    });
  });

  it("a caller after the publish does not join a render of the path begun before it", async () => {
    const { cache, invalidations } = withNotFound();
    const before = controlledRender(["404 rendered before the publish"]);
    const early = cache.get("/new", "/new", before.render);
    invalidations.revalidatePath("/new");
    const after = controlledRender(["200 the new page"]);
    const late = cache.get("/new", "/new", after.render);
    await before.finishAll();
    await after.finishAll();
    expect((await early).value).toBe("404 rendered before the publish");
    expect(await late).toMatchObject({ status: "MISS", value: "200 the new page" });
    expect(await cache.get("/new", "/new", immediate("unused"))).toMatchObject({
      status: "HIT",
      value: "200 the new page",
    });
  });
});
