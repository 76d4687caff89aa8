import { Redis } from "ioredis";

/**
 * A Redis connection that never makes a request wait for Redis: commands fail at once while
 * it is down (no offline queue), it reconnects by itself, and it says so in the log (once per
 * state change, not once per failed command).
 */
export function connectRedis(url: string, role: string): Redis {
  const redis = new Redis(url, {
    lazyConnect: false,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 2_000,
    commandTimeout: 500,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
  });
  let down = false;
  redis.on("ready", () => {
    if (down) console.log(`[redis] ${role}: reconnected`);
    down = false;
  });
  redis.on("error", (error: Error) => {
    if (!down) console.error(`[redis] ${role}: unavailable (${error.message}); using the local cache meanwhile`);
    down = true;
  });
  // A connection that has never been up counts as down, so its first "ready" is logged as a connection.
  redis.once("ready", () => console.log(`[redis] ${role}: connected`));
  redis.on("close", () => {
    if (!down) console.error(`[redis] ${role}: connection lost; using the local cache meanwhile`);
    down = true;
  });
  return redis;
}

/** Waits (briefly) for a connection that is still being opened, so its first commands are not lost. */
export async function whenReady(redis: Redis, timeoutMs = 500): Promise<void> {
  if (redis.status === "ready" || redis.status === "end") return;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, timeoutMs);
    redis.once("ready", () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** Runs a Redis command; on any failure (down, slow) answers `fallback` instead. */
export async function orFallback<T>(work: () => Promise<T>, fallback: T): Promise<T> {
  try {
    return await work();
  } catch {
    return fallback;
  }
}

/**
 * Warns, once the connection is up, when Redis may grow without limit (no maxmemory) or
 * refuse writes when full (noeviction): the page cache writes an entry per rendered page.
 * Managed services that forbid CONFIG are left alone.
 */
export function warnIfUnbounded(redis: Redis, log: (line: string) => void = console.warn): Promise<void> {
  return new Promise((resolve) => {
    const check = async () => {
      try {
        const [, maxmemory] = (await redis.config("GET", "maxmemory")) as [string, string];
        const [, policy] = (await redis.config("GET", "maxmemory-policy")) as [string, string];
        if (maxmemory === "0" || !/lru|lfu|random|ttl/.test(policy)) {
          log(
            `[redis] maxmemory is ${maxmemory === "0" ? "unset" : maxmemory} with policy ${policy}: set maxmemory and maxmemory-policy allkeys-lru, or the page cache can fill it`,
          );
        }
      } catch {
        // CONFIG is disabled (managed Redis): nothing to check.
      }
      resolve();
    };
    if (redis.status === "ready") void check();
    else redis.once("ready", () => void check());
  });
}
