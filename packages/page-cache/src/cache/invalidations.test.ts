import { runInNewContext } from "node:vm";
import { setFlagsFromString } from "node:v8";

import { describe, expect, it } from "vitest";

import { entryState, Invalidations, isEntryStale, pathTag, type InvalidationStamp } from "./invalidations.ts";

function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms), set: (ms: number) => (now = ms) };
}

const entry = (seen: InvalidationStamp | undefined, tags: string[] = ["t"], path = "/a", revalidate = 300) => ({
  tags,
  path,
  seen,
  generatedAt: 0,
  revalidate,
});

/** The heap after a full collection (bytes). */
function heapAfterGc(): number {
  setFlagsFromString("--expose-gc");
  (runInNewContext("gc") as () => void)();
  return process.memoryUsage().heapUsed;
}

describe("invalidation record", () => {
  it("an invalidation made after a render began leaves it stale, whatever the clock says", () => {
    const time = clock();
    const invalidations = new Invalidations({ now: time.now });
    const seen = invalidations.stamp();
    // The clock steps back 30 s (NTP) between the render and the publish.
    time.advance(-30_000);
    invalidations.revalidateTag("t");
    expect(invalidations.isInvalidated(entry(seen))).toBe(true);
    // A render that begins after it is fresh, in the same millisecond or not.
    expect(invalidations.isInvalidated(entry(invalidations.stamp()))).toBe(false);
  });

  it("an entry without a stamp (from an older release) counts as stale", () => {
    const invalidations = new Invalidations();
    expect(invalidations.isInvalidated(entry(undefined))).toBe(true);
  });

  it("another process's entry is compared on shared versions, and is stale while an invalidation made here is unnumbered", () => {
    const invalidations = new Invalidations({ origin: "here" });
    const theirs = (version: number) => entry({ origin: "there", seq: 99, version });
    invalidations.applyShared("tag", "t", 10);
    invalidations.advanceShared(10);
    expect(invalidations.isInvalidated(theirs(9))).toBe(true);
    expect(invalidations.isInvalidated(theirs(10))).toBe(false);
    invalidations.revalidateTag("t");
    expect(invalidations.isInvalidated(theirs(1_000))).toBe(true);
    invalidations.confirmShared("tag", "t", 11, invalidations.localSeq);
    expect(invalidations.isInvalidated(theirs(10))).toBe(true);
    expect(invalidations.isInvalidated(theirs(11))).toBe(false);
  });

  it("memory stays flat over 1,000,000 distinct path invalidations", () => {
    const time = clock();
    const invalidations = new Invalidations({
      now: time.now,
      maxRevalidateSeconds: 600,
      staleWindowMs: 60_000,
      maxKeys: 100_000,
    });
    const step = 10; // ms between invalidations: 10,000 s in all, fifteen times the horizon
    const bound = invalidations.horizonMs / step + 1;
    const early = invalidations.stamp();
    let heapAt300k = 0;
    for (let i = 0; i < 1_000_000; i++) {
      time.advance(step);
      invalidations.revalidatePath(`/jobs/${i}`);
      if (i % 10 === 0) invalidations.revalidatePath(`/teams/${i}/*`);
      if (i % 50_000 === 0) {
        expect(invalidations.size.tags).toBeLessThanOrEqual(bound);
        expect(invalidations.size.prefixes).toBeLessThanOrEqual(bound);
      }
      if (i === 300_000) heapAt300k = heapAfterGc();
    }
    expect(invalidations.size.tags).toBe(bound - 1);
    // Unbounded, the 700,000 records added since would take well over 50 MB.
    expect(heapAfterGc() - heapAt300k).toBeLessThan(15 * 1024 * 1024);
    // What was forgotten still counts: an entry rendered before all this is stale on its own record.
    expect(invalidations.isInvalidated(entry(early, [], "/jobs/0"))).toBe(true);
  }, 60_000);

  it("at most maxKeys are kept; an entry that depended on a forgotten one stays stale", () => {
    const invalidations = new Invalidations({ maxKeys: 10, origin: "here" });
    const before = invalidations.stamp();
    invalidations.revalidateTag("t");
    invalidations.applyShared("tag", "u", 5);
    invalidations.advanceShared(5);
    for (let i = 0; i < 100; i++) invalidations.revalidateTag(`other-${i}`);
    expect(invalidations.size.tags).toBe(10);
    expect(invalidations.isInvalidated(entry(before, ["t"]))).toBe(true);
    // Another process's entry that had not seen version 5 of `u`.
    expect(invalidations.isInvalidated(entry({ origin: "there", seq: 0, version: 4 }, ["u"]))).toBe(true);
  });

  it("no entry is fresh longer than the longest interval, so a forgotten invalidation cannot matter", () => {
    const time = clock();
    const invalidations = new Invalidations({ now: time.now, maxRevalidateSeconds: 600, staleWindowMs: 60_000 });
    const long = { ...entry(invalidations.stamp(), ["t"]), generatedAt: time.now(), revalidate: 86_400 };
    time.advance(599_999);
    expect(isEntryStale(long, time.now(), invalidations)).toBe(false);
    time.advance(1);
    expect(isEntryStale(long, time.now(), invalidations)).toBe(true);

    // Invalidated, then forgotten a horizon later: still stale (the interval, and the floor).
    const fresh = { ...entry(invalidations.stamp(), ["t"]), generatedAt: time.now(), revalidate: 86_400 };
    invalidations.revalidateTag("t");
    time.advance(invalidations.horizonMs);
    invalidations.revalidateTag("unrelated");
    expect(invalidations.size.tags).toBe(1);
    expect(invalidations.isInvalidated(fresh)).toBe(true);
    expect(isEntryStale(fresh, time.now(), invalidations)).toBe(true);
  });

  it("a shared invalidation at or below the watermark is not applied twice (a catch-up does not make entries stale again)", () => {
    const invalidations = new Invalidations({ origin: "here" });
    invalidations.applyShared("tag", "t", 7);
    invalidations.advanceShared(7);
    const after = invalidations.stamp();
    invalidations.applyShared("tag", pathTag("/a"), 7);
    invalidations.applyShared("tag", "t", 7);
    expect(invalidations.isInvalidated(entry(after, ["t"]))).toBe(false);
  });

  it("a purge from elsewhere, or Redis losing its record, makes everything cached before stale", () => {
    const invalidations = new Invalidations({ origin: "here" });
    const before = invalidations.stamp();
    invalidations.forgetBefore(50);
    expect(invalidations.isInvalidated(entry(before, []))).toBe(true);
    expect(invalidations.isInvalidated(entry({ origin: "there", seq: 0, version: 49 }, []))).toBe(true);
    expect(invalidations.isInvalidated(entry(invalidations.stamp(), []))).toBe(false);

    const beforeLoss = invalidations.stamp();
    invalidations.loseHistory();
    expect(invalidations.isInvalidated(entry(beforeLoss, []))).toBe(true);
    // Until a purge covering it is shared, no other process's entry is trusted.
    expect(invalidations.needsPurge).toBe(true);
    expect(invalidations.isInvalidated(entry({ origin: "there", seq: 0, version: 1e15 }, []))).toBe(true);
    invalidations.confirmPurge(60, invalidations.localSeq);
    expect(invalidations.needsPurge).toBe(false);
    expect(invalidations.isInvalidated(entry({ origin: "there", seq: 0, version: 60 }, []))).toBe(false);
  });
});

describe("expiring invalidations (takedowns)", () => {
  const at = (seen: InvalidationStamp | undefined, tags: string[] = ["t"], path = "/a") => ({ tags, path, seen });

  it("an expiring invalidation expires what it hits; a stale-while-revalidate one only makes it stale", () => {
    const invalidations = new Invalidations({ origin: "here" });
    const before = invalidations.stamp();
    invalidations.revalidateTag("t");
    expect(invalidations.invalidationOf(at(before))).toBe("stale");
    invalidations.revalidatePath("/a", { expire: true });
    expect(invalidations.invalidationOf(at(before))).toBe("expired");
    expect(invalidations.invalidationOf(at(before, [], "/b"))).toBe("none");
    // Rendered after it: fresh.
    expect(invalidations.invalidationOf(at(invalidations.stamp()))).toBe("none");
  });

  it("a later stale-while-revalidate invalidation of the same key does not soften an earlier expiry", () => {
    const invalidations = new Invalidations({ origin: "here" });
    const before = invalidations.stamp();
    invalidations.revalidateTag("t", { expire: true });
    const between = invalidations.stamp();
    invalidations.revalidateTag("t");
    expect(invalidations.invalidationOf(at(before))).toBe("expired");
    // Rendered after the takedown: only stale by the later publish.
    expect(invalidations.invalidationOf(at(between))).toBe("stale");
  });

  it("wildcards expire every path below them", () => {
    const invalidations = new Invalidations({ origin: "here" });
    const before = invalidations.stamp();
    invalidations.revalidatePath("/jobs/*", { expire: true });
    expect(invalidations.invalidationOf(at(before, [], "/jobs/a/b"))).toBe("expired");
    expect(invalidations.invalidationOf(at(before, [], "/jobs"))).toBe("none");
  });

  it("entryState: expired wins over an elapsed interval; stale and fresh as before", () => {
    const time = clock();
    const invalidations = new Invalidations({ now: time.now, origin: "here" });
    const made = { ...at(invalidations.stamp()), generatedAt: time.now(), revalidate: 300 };
    expect(entryState(made, time.now(), invalidations)).toBe("fresh");
    time.advance(300_000);
    expect(entryState(made, time.now(), invalidations)).toBe("stale");
    invalidations.revalidateTag("t", { expire: true });
    expect(entryState(made, time.now(), invalidations)).toBe("expired");
    expect(isEntryStale(made, time.now(), invalidations)).toBe(true);
  });

  it("another process's entries: expired by a shared expiring invalidation below its version, and while one made here is unnumbered", () => {
    const invalidations = new Invalidations({ origin: "here" });
    const theirs = (version: number) => at({ origin: "there", seq: 99, version });
    invalidations.applyShared("tag", "t", 10, true);
    invalidations.advanceShared(10);
    expect(invalidations.invalidationOf(theirs(9))).toBe("expired");
    expect(invalidations.invalidationOf(theirs(10))).toBe("none");
    // A later plain one of the same key, read first (a catch-up reads fields in any order).
    invalidations.applyShared("tag", "u", 20);
    invalidations.applyShared("tag", "u", 15, true);
    invalidations.advanceShared(20);
    expect(invalidations.invalidationOf(at({ origin: "there", seq: 0, version: 14 }, ["u"]))).toBe("expired");
    expect(invalidations.invalidationOf(at({ origin: "there", seq: 0, version: 17 }, ["u"]))).toBe("stale");

    invalidations.revalidateTag("t", { expire: true });
    expect(invalidations.invalidationOf(theirs(1_000))).toBe("expired");
    invalidations.confirmShared("tag", "t", 1_001, invalidations.localSeq, true);
    expect(invalidations.invalidationOf(theirs(1_000))).toBe("expired");
    expect(invalidations.invalidationOf(theirs(1_001))).toBe("none");
  });

  it("an entry without a stamp is expired by any expiring invalidation of what it depends on", () => {
    const invalidations = new Invalidations({ origin: "here" });
    expect(invalidations.invalidationOf(at(undefined))).toBe("stale");
    invalidations.revalidatePath("/a", { expire: true });
    expect(invalidations.invalidationOf(at(undefined))).toBe("expired");
  });

  it("forgetting an expiring record keeps what had not seen it expired (the expire floors)", () => {
    const time = clock();
    const invalidations = new Invalidations({
      now: time.now,
      maxRevalidateSeconds: 600,
      staleWindowMs: 60_000,
      origin: "here",
    });
    const before = invalidations.stamp();
    invalidations.applyShared("tag", "u", 5, true);
    invalidations.advanceShared(5);
    invalidations.revalidateTag("t", { expire: true });
    time.advance(invalidations.horizonMs + 1);
    invalidations.revalidateTag("unrelated");
    expect(invalidations.size.tags).toBe(1);
    expect(invalidations.invalidationOf(at(before, ["t"]))).toBe("expired");
    expect(invalidations.invalidationOf(at({ origin: "there", seq: 0, version: 4 }, ["u"]))).toBe("expired");
    expect(invalidations.invalidationOf(at(invalidations.stamp(), ["t"]))).toBe("none");
  });

  it("an expiring purge (from another process, or confirmed from here) expires everything cached before it", () => {
    const invalidations = new Invalidations({ origin: "here" });
    const before = invalidations.stamp();
    invalidations.forgetBefore(50, true);
    expect(invalidations.invalidationOf(at(before, []))).toBe("expired");
    expect(invalidations.invalidationOf(at({ origin: "there", seq: 0, version: 49 }, []))).toBe("expired");
    expect(invalidations.invalidationOf(at(invalidations.stamp(), []))).toBe("none");

    invalidations.revalidateTag("t", { expire: true });
    invalidations.requirePurge(true);
    expect(invalidations.purgeExpires).toBe(true);
    expect(invalidations.invalidationOf(at({ origin: "there", seq: 0, version: 1e15 }, []))).toBe("expired");
    invalidations.confirmPurge(60, invalidations.localSeq, true);
    expect(invalidations.needsPurge).toBe(false);
    expect(invalidations.purgeExpires).toBe(false);
    expect(invalidations.invalidationOf(at({ origin: "there", seq: 0, version: 60 }, ["t"]))).toBe("none");
    expect(invalidations.invalidationOf(at({ origin: "there", seq: 0, version: 59 }, ["t"]))).toBe("expired");
  });

  it("expiredSince: whether work begun at a stamp predates an expiring invalidation", () => {
    const invalidations = new Invalidations({ origin: "here" });
    const before = invalidations.stamp();
    invalidations.revalidateTag("t");
    expect(invalidations.expiredSince(before)).toBe(false);
    invalidations.applyShared("tag", "u", 3, true);
    expect(invalidations.expiredSince(before)).toBe(true);
    expect(invalidations.expiredSince(invalidations.stamp())).toBe(false);
  });

  it("listeners hear whether an invalidation expires", () => {
    const invalidations = new Invalidations();
    const heard: Array<[string, string, boolean]> = [];
    invalidations.onInvalidate((kind, key, _seq, expire) => heard.push([kind, key, expire]));
    invalidations.revalidatePath("/a", { expire: true });
    invalidations.revalidatePath("/jobs/*");
    expect(heard).toEqual([
      ["tag", "path:/a", true],
      ["prefix", "/jobs/", false],
    ]);
  });
});
