import getPort from "../support/free-port.ts";
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

import {
  InvalidationBus,
  type InvalidationBusOptions,
  Invalidations,
  type InvalidationsOptions,
  IsrCache,
  MemoryStore,
  redisRemoteCache,
  type Rendered,
} from "@cms-site/page-cache";
import { RedisServer } from "../support/redis-server.ts";

// Several cache instances in one process, sharing one real Redis, each with its own clock:
// the page cache, invalidation record and bus the site runs, without the site around them.
let redis: RedisServer;
let admin: Redis;
const clients: Redis[] = [];

beforeAll(async () => {
  redis = new RedisServer(await getPort());
  await redis.start();
  admin = client();
});

afterAll(async () => {
  for (const each of clients) each.disconnect();
  await redis.stop();
});

beforeEach(async () => {
  await whenReady(admin);
  await admin.flushall();
});

afterEach(() => {
  for (const each of clients.splice(1)) each.disconnect();
});

/** As the site connects (app/lib/redis.server.ts), reconnecting quickly. */
function client(): Redis {
  const connection = new Redis(redis.url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: 2_000,
    retryStrategy: () => 50,
  });
  connection.on("error", () => undefined);
  clients.push(connection);
  return connection;
}

function whenReady(connection: Redis): Promise<void> {
  if (connection.status === "ready") return Promise.resolve();
  return new Promise((resolve) => connection.once("ready", () => resolve()));
}

const codec = { encode: (value: string) => value, decode: (text: string) => text };

interface Instance {
  invalidations: Invalidations;
  bus: InvalidationBus;
  cache: IsrCache<string>;
  publisher: Redis;
  subscriber: Redis;
}

/** One instance whose clock is `offsetMs` off. */
function instance(
  offsetMs: number,
  options: InvalidationsOptions = {},
  busOptions: InvalidationBusOptions = {},
): Instance {
  const now = () => Date.now() + offsetMs;
  const publisher = client();
  const subscriber = client();
  const invalidations = new Invalidations({ now, ...options });
  const bus = new InvalidationBus(invalidations, publisher, subscriber, busOptions);
  const cache = new IsrCache<string>({
    store: new MemoryStore(10_000_000),
    invalidations,
    now,
    remote: redisRemoteCache(publisher, codec),
  });
  return { invalidations, bus, cache, publisher, subscriber };
}

/** Connected, subscribed and caught up. */
async function connected(...instances: Instance[]) {
  for (const each of instances) await Promise.all([whenReady(each.publisher), whenReady(each.subscriber)]);
  const channel = instances[0]?.bus.channel ?? "";
  await vi.waitFor(async () => expect(await admin.pubsub("NUMSUB", channel)).toEqual([channel, instances.length]));
  await Promise.all(instances.map((each) => each.bus.idle()));
}

/** Cut off from Redis (both connections closed), until reconnect(). */
async function cutOff(each: Instance) {
  const closed = (connection: Redis) => new Promise((resolve) => connection.once("end", resolve));
  const both = Promise.all([closed(each.publisher), closed(each.subscriber)]);
  each.publisher.disconnect();
  each.subscriber.disconnect();
  await both;
}

async function reconnect(each: Instance) {
  await Promise.all([each.publisher.connect(), each.subscriber.connect()]);
}

const render =
  (value: string, tags: string[] = []) =>
  async (): Promise<Rendered<string>> => ({ value, cacheable: true, tags, revalidate: 300, size: value.length });

/** Waits until `instance` holds no fresh entry for `key` (it has heard of an invalidation). */
const heardOf = (each: Instance, key: string) =>
  vi.waitFor(() => expect(each.cache.peekFresh(key)).toBeUndefined(), { timeout: 5_000, interval: 10 });

describe("invalidations across instances whose clocks differ (±30 s)", () => {
  it("an invalidation from an instance 30 s behind reaches what was rendered before it on one 30 s ahead", async () => {
    const ahead = instance(30_000);
    const behind = instance(-30_000);
    await connected(ahead, behind);
    expect((await ahead.cache.get("/x", "/x", render("v1", ["t"]))).status).toBe("MISS");

    behind.invalidations.revalidateTag("t");
    await behind.bus.idle();
    await heardOf(ahead, "/x");
    // The instance that never had it locally reads it from Redis: STALE, not a HIT.
    expect(await behind.cache.get("/x", "/x", render("v2 by behind", ["t"]))).toMatchObject({
      status: "STALE",
      value: "v1",
    });
    await vi.waitFor(async () =>
      expect(await behind.cache.get("/x", "/x", render("unused"))).toMatchObject({
        status: "HIT",
        value: "v2 by behind",
      }),
    );
    // Its own copy is stale, but behind has stored a fresh one in Redis: served at once (decision 0028).
    expect(await ahead.cache.get("/x", "/x", render("never", ["t"]))).toMatchObject({
      status: "HIT",
      value: "v2 by behind",
    });
    expect(ahead.cache.peekFresh("/x")?.value).toBe("v2 by behind");
  });

  it("an invalidation made while another instance renders leaves that render stale, there and everywhere", async () => {
    const ahead = instance(30_000);
    const behind = instance(-30_000);
    await connected(ahead, behind);
    await ahead.cache.get("/probe", "/probe", render("probe", ["u"]));

    let finish = () => {};
    let started = () => {};
    const rendering = new Promise<void>((resolve) => (started = resolve));
    const slow = () =>
      new Promise<Rendered<string>>((resolve) => {
        started();
        finish = () => resolve({ value: "old data", cacheable: true, tags: ["u"], revalidate: 300, size: 8 });
      });
    const miss = ahead.cache.get("/y", "/y", slow);
    // Once the render has begun (get() first looks in Redis: published before that, it is not "during").
    await rendering;
    behind.invalidations.revalidateTag("u"); // the CMS published while `ahead` was rendering
    await heardOf(ahead, "/probe");
    finish();
    // Answered to the visitor who asked, as STALE (so no CDN keeps it), and stored stale.
    expect((await miss).status).toBe("STALE");
    expect(ahead.cache.peekFresh("/y")).toBeUndefined();

    // Nor was it shared (decision 0028: in Redis it could replace a fresh render): an instance that
    // joins later finds nothing there and renders the new data itself.
    const exact = instance(0);
    await connected(ahead, behind, exact);
    expect(await exact.cache.get("/y", "/y", render("new data", ["u"]))).toMatchObject({
      status: "MISS",
      value: "new data",
    });
  });

  it("what is rendered after an invalidation is fresh on every instance: no needless regeneration either", async () => {
    const ahead = instance(30_000);
    const behind = instance(-30_000);
    await connected(ahead, behind);
    await behind.cache.get("/probe", "/probe", render("probe", ["w"]));

    ahead.invalidations.revalidateTag("w");
    await ahead.bus.idle();
    await heardOf(behind, "/probe");
    expect((await behind.cache.get("/z", "/z", render("after", ["w"]))).status).toBe("MISS");
    expect(behind.cache.peekFresh("/z")?.value).toBe("after");
    expect(await ahead.cache.get("/z", "/z", render("unused", ["w"]))).toMatchObject({ status: "HIT", value: "after" });
  });
});

describe("the shared record stays bounded", () => {
  it("records older than the horizon leave Redis as invalidations go by; the floor keeps it safe", async () => {
    // 20,000 distinct paths invalidated two hours ago, as the release before would have left
    // them: four times what each instance may keep (maxKeys below, 50,000 by default), five times
    // the invalidations made after them. (200,000 took over 60 s of CPU on a busy 2-core machine.)
    const twoHoursAgo = (Date.now() - 2 * 3_600_000) * 1_000;
    const aged = 20_000;
    const maxKeys = 5_000;
    for (let start = 0; start < aged; start += 10_000) {
      const batch = admin.pipeline();
      for (let i = start; i < start + 10_000; i++)
        batch.hset("isr:invalidations", `t:path:/old/${i}`, String(twoHoursAgo + i));
      await batch.exec();
    }
    await admin.hset("isr:invalidations", "#version", String(twoHoursAgo + aged), "#epoch", "earlier");
    const lastAged = twoHoursAgo + aged - 1;

    const a = instance(0, { maxRevalidateSeconds: 600, maxKeys });
    const b = instance(0, { maxRevalidateSeconds: 600, maxKeys });
    await connected(a, b);
    for (let i = 0; i < 4_000; i++) {
      a.invalidations.revalidatePath(`/new/${i}`);
      if (i % 500 === 499) await a.bus.idle();
    }
    await a.bus.idle();
    const fields = await admin.hlen("isr:invalidations");
    expect(fields).toBeLessThan(4_000 + 1_000);
    expect(fields).toBeGreaterThanOrEqual(4_000);
    expect(Number(await admin.hget("isr:invalidations", "#floor"))).toBe(lastAged);
    expect(b.invalidations.size.tags).toBeLessThanOrEqual(maxKeys);

    // A late joiner learns the floor: an entry whose render had not seen the forgotten records is stale.
    const late = instance(0, { maxRevalidateSeconds: 600, maxKeys });
    await connected(a, b, late);
    const remote = redisRemoteCache(admin, codec);
    const stored = (version: number) => ({
      value: `rendered at ${version}`,
      tags: [],
      path: "/old/1",
      revalidate: 300,
      generatedAt: Date.now(),
      seen: { origin: "gone", seq: 1, version },
      size: 10,
    });
    await remote.store("/old/1", stored(lastAged - 1));
    expect((await late.cache.get("/old/1", "/old/1", render("again"))).status).toBe("STALE");
    await remote.store("/old/2", { ...stored(late.invalidations.sharedVersion), path: "/old/2" });
    expect((await late.cache.get("/old/2", "/old/2", render("again"))).status).toBe("HIT");
  }, 60_000);
});

describe("an instance cut off from Redis", () => {
  it("keeps one invalidation per path and sends them when it is back", async () => {
    const a = instance(0);
    const b = instance(0);
    await connected(a, b);
    for (const path of ["/k", "/m", "/n"]) await b.cache.get(path, path, render(path));

    await cutOff(a);
    for (let i = 0; i < 1_000; i++) a.invalidations.revalidatePath("/k");
    a.invalidations.revalidatePath("/m");
    expect(a.bus.pendingCount).toBe(2);
    expect(b.cache.peekFresh("/k")).toBeDefined();

    await reconnect(a);
    await heardOf(b, "/k");
    await heardOf(b, "/m");
    await a.bus.idle();
    expect(a.bus.pendingCount).toBe(0);
    // Sent one by one: what was not invalidated stays fresh.
    expect(b.cache.peekFresh("/n")).toBeDefined();
  });

  it("past maxPending distinct invalidations, sends one purge instead: everything cached before is stale", async () => {
    const a = instance(0, {}, { maxPending: 100 });
    const b = instance(0);
    await connected(a, b);
    await b.cache.get("/n", "/n", render("n"));
    await a.cache.get("/own", "/own", render("own"));

    await cutOff(a);
    for (let i = 0; i < 1_000; i++) a.invalidations.revalidatePath(`/p/${i}`);
    expect(a.bus.pendingCount).toBeLessThanOrEqual(100);
    expect(a.invalidations.needsPurge).toBe(true);

    await reconnect(a);
    await heardOf(b, "/n");
    await a.bus.idle();
    expect(a.invalidations.needsPurge).toBe(false);
    expect(a.bus.pendingCount).toBe(0);
    // The purge is for the others: what `a` rendered itself before its own invalidations stays judged by them.
    expect(a.cache.peekFresh("/own")).toBeDefined();
  });

  it("when Redis comes back empty (restarted), nothing cached before is trusted", async () => {
    const a = instance(0);
    const b = instance(0);
    await connected(a, b);
    a.invalidations.revalidateTag("first"); // both now follow this record
    await a.bus.idle();
    await vi.waitFor(() => expect(b.invalidations.sharedVersion).toBe(a.invalidations.sharedVersion));
    await a.cache.get("/a", "/a", render("a"));
    await b.cache.get("/b", "/b", render("b"));

    await redis.stop();
    await redis.start();
    await heardOf(a, "/a");
    await heardOf(b, "/b");
    await vi.waitFor(() => expect(a.invalidations.needsPurge || b.invalidations.needsPurge).toBe(false));
    expect((await a.cache.get("/a", "/a", render("a again"))).status).toBe("STALE");
  }, 30_000);
});

describe("expiring invalidations (takedowns) across instances", () => {
  it("carry the flag on the channel and in the record: no instance serves an older render, not STALE", async () => {
    const a = instance(30_000);
    const b = instance(-30_000);
    await connected(a, b);
    const before = await a.cache.get("/gone", "/gone", render("the page"));
    expect(before.status).toBe("MISS");
    // b serves a's render from Redis, then keeps it locally.
    expect(await b.cache.get("/gone", "/gone", render("unused"))).toMatchObject({ status: "HIT", value: "the page" });

    a.invalidations.revalidatePath("/gone", { expire: true });
    await a.bus.sent();
    const version = await admin.hget("isr:invalidations", "t:path:/gone");
    expect(await admin.hget("isr:invalidations", "xt:path:/gone")).toBe(version);
    await heardOf(b, "/gone");
    // Heard over the channel: b's copy is expired, rendered afresh for the next caller.
    expect(await b.cache.get("/gone", "/gone", render("404 by b"))).toMatchObject({
      status: "MISS",
      value: "404 by b",
    });
    // a's own copy too.
    expect(await a.cache.get("/gone", "/gone", render("never"))).toMatchObject({ status: "HIT", value: "404 by b" });

    // An instance that starts later learns it from the record (xt:…) and does not adopt an entry
    // rendered before it, even if that is what Redis holds.
    await redisRemoteCache(admin, codec).store("/gone", before.entry!);
    const late = instance(0);
    await connected(a, b, late);
    expect(await late.cache.get("/gone", "/gone", render("404 by late"))).toMatchObject({
      status: "MISS",
      value: "404 by late",
    });
  });

  it("a takedown made while cut off from Redis is sent when it is back, still expiring", async () => {
    const a = instance(0);
    const b = instance(0);
    await connected(a, b);
    await b.cache.get("/gone", "/gone", render("the page"));
    await b.cache.get("/kept", "/kept", render("kept"));

    await cutOff(a);
    a.invalidations.revalidatePath("/gone", { expire: true });
    a.invalidations.revalidatePath("/gone"); // a publish after it does not soften it
    expect(a.bus.pendingCount).toBe(1);
    expect(b.cache.peekFresh("/gone")).toBeDefined();

    await reconnect(a);
    await heardOf(b, "/gone");
    expect(await b.cache.get("/gone", "/gone", render("404"))).toMatchObject({ status: "MISS", value: "404" });
    expect(b.cache.peekFresh("/kept")).toBeDefined();
  });

  it("past maxPending, the purge that stands for a held takedown expires everything cached before", async () => {
    const a = instance(0, {}, { maxPending: 10 });
    const b = instance(0);
    await connected(a, b);
    await b.cache.get("/n", "/n", render("n"));

    await cutOff(a);
    a.invalidations.revalidatePath("/gone", { expire: true });
    for (let i = 0; i < 100; i++) a.invalidations.revalidatePath(`/p/${i}`);
    expect(a.invalidations.purgeExpires).toBe(true);

    await reconnect(a);
    await heardOf(b, "/n");
    expect(await b.cache.get("/n", "/n", render("n again"))).toMatchObject({ status: "MISS", value: "n again" });
    expect(await admin.hget("isr:invalidations", "#xfloor")).toBe(await admin.hget("isr:invalidations", "#floor"));
  });
});
