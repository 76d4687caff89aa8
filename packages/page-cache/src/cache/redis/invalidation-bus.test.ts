import { Redis } from "ioredis";
import { afterEach, describe, expect, it } from "vitest";

import { Invalidations } from "../invalidations.ts";
import { InvalidationBus } from "./invalidation-bus.ts";

// Redis unreachable: clients that never connect (lazyConnect, and nothing asks them to).
// tests/integration/invalidation-clocks.test.ts runs the bus against a real Redis.
const clients: Redis[] = [];
function unreachable(): Redis {
  const client = new Redis({ port: 1, lazyConnect: true, enableOfflineQueue: false });
  clients.push(client);
  return client;
}

afterEach(() => {
  for (const client of clients.splice(0)) client.disconnect();
});

describe("invalidation bus while Redis is down", () => {
  it("keeps one invalidation per tag or prefix, not one per call", () => {
    const invalidations = new Invalidations();
    const bus = new InvalidationBus(invalidations, unreachable(), unreachable());
    for (let i = 0; i < 1_000; i++) invalidations.revalidatePath("/jobs");
    for (let i = 0; i < 10; i++) invalidations.revalidateTag(`tag-${i}`);
    invalidations.revalidatePath("/jobs/*");
    invalidations.revalidatePath("/jobs/*");
    expect(bus.pendingCount).toBe(12);
    expect(invalidations.needsPurge).toBe(false);
  });

  it("a held invalidation stays expiring when a stale-while-revalidate one of the same key replaces it; so does the purge past maxPending", () => {
    const invalidations = new Invalidations({ origin: "here" });
    const bus = new InvalidationBus(invalidations, unreachable(), unreachable(), { maxPending: 3 });
    invalidations.revalidatePath("/gone", { expire: true });
    invalidations.revalidatePath("/gone");
    expect(bus.pendingCount).toBe(1);
    // Until it is shared, other processes' entries for that path count as expired here.
    const theirs = { tags: [], path: "/gone", seen: { origin: "there", seq: 0, version: Number.MAX_SAFE_INTEGER } };
    expect(invalidations.invalidationOf(theirs)).toBe("expired");
    expect(invalidations.purgeExpires).toBe(false);
    for (let i = 0; i < 3; i++) invalidations.revalidatePath(`/other/${i}`);
    expect(invalidations.needsPurge).toBe(true);
    expect(invalidations.purgeExpires).toBe(true);
  });

  it("stays bounded over 1,000,000 distinct path invalidations: past maxPending they become one purge", () => {
    let now = 1_000_000;
    const invalidations = new Invalidations({ now: () => now, maxRevalidateSeconds: 600 });
    const bus = new InvalidationBus(invalidations, unreachable(), unreachable(), { maxPending: 10_000 });
    for (let i = 0; i < 1_000_000; i++) {
      now += 10;
      invalidations.revalidatePath(`/jobs/${i}`);
      if (i % 100_000 === 0) expect(bus.pendingCount).toBeLessThanOrEqual(10_000);
    }
    expect(bus.pendingCount).toBeLessThanOrEqual(10_000);
    expect(invalidations.size.tags).toBeLessThanOrEqual(50_000);
    // The others will be told to drop everything cached before; meanwhile their entries are not trusted here.
    expect(invalidations.needsPurge).toBe(true);
    expect(
      invalidations.isInvalidated({
        tags: [],
        path: "/",
        seen: { origin: "another", seq: 0, version: Number.MAX_SAFE_INTEGER },
      }),
    ).toBe(true);
  }, 60_000);
});
