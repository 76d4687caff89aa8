import getPort from "../support/free-port.ts";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { redisRemoteCache } from "@cms-site/page-cache";
import { RedisServer } from "../support/redis-server.ts";

// The cross-instance regeneration lock on a real Redis that answers slowly: under load (issue 30,
// load average 30) a command outlived the client's 500 ms timeout, the lock read as taken by the
// asker although another instance held it, and a stale key was regenerated twice.
const redis = new RedisServer(await getPort());
const codec = { encode: (value: string) => value, decode: (text: string) => text };
const clients: Redis[] = [];

/** A client set up as the site's (app/lib/redis.server.ts): no offline queue, 500 ms per command. */
async function client(timeouts = true): Promise<Redis> {
  const connection = new Redis(
    redis.url,
    timeouts ? { enableOfflineQueue: false, maxRetriesPerRequest: 0, commandTimeout: 500 } : {},
  );
  clients.push(connection);
  await new Promise((resolve) => connection.once("ready", resolve));
  return connection;
}

const PAUSE_MS = 1_500;

beforeAll(() => redis.start());
afterAll(async () => {
  for (const connection of clients) connection.disconnect();
  await redis.stop();
});

describe("the regeneration lock when Redis is slow", () => {
  it("a lock command that times out is not taken as the lock, nor left held", async () => {
    const [first, second, admin] = [await client(), await client(), await client(false)];
    const holder = redisRemoteCache(first, codec);
    const asker = redisRemoteCache(second, codec);
    expect(await holder.lock("/positions", 30_000)).toBe(true);

    // Redis answers nobody for a while: the asker's SET NX outlives its 500 ms timeout.
    await admin.client("PAUSE", PAUSE_MS, "ALL");
    expect(await asker.lock("/positions", 30_000)).toBe(false);
    await admin.ping(); // answered once the pause is over
    expect(await first.get("isr:lock:/positions")).toMatch(/^\d+-/); // still the holder's

    await holder.unlock("/positions");
    await admin.client("PAUSE", PAUSE_MS, "ALL");
    expect(await asker.lock("/positions", 30_000)).toBe(false);
    // Its SET ran once Redis woke up; the asker gave it back right after (same connection, in order).
    const deadline = Date.now() + PAUSE_MS + 2_000;
    while ((await admin.exists("isr:lock:/positions")) === 1) {
      if (Date.now() > deadline) throw new Error("the timed-out lock was left held");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });

  it("with Redis down, every instance regenerates for itself", async () => {
    const down = new Redis({ port: await getPort(), lazyConnect: true, enableOfflineQueue: false });
    clients.push(down);
    expect(await redisRemoteCache(down, codec).lock("/positions", 30_000)).toBe(true);
  });
});
