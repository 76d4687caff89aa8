import { Redis } from "ioredis";

import type { Log } from "./log.ts";

/** Where Redis connections report their state (the process logger). */
export type RedisLog = Pick<Log, "info" | "warn" | "error">;

/**
 * The process's Redis connections, all opened here and only when first asked for: one command
 * connection shared by every user (page cache entries and locks, the invalidation bus's writes,
 * session revocations, rate limits, the readiness probe), and one subscriber connection for the
 * invalidation bus's pub/sub (a subscribed connection can run no other command). Without a URL
 * there are none. server/index.ts makes one at start and closes it at shutdown.
 */
export interface RedisClients {
  /** The shared command connection, or undefined without REDIS_URL. */
  commands(): Redis | undefined;
  /** The connection for SUBSCRIBE, or undefined without REDIS_URL. */
  subscriber(): Redis | undefined;
  /** Closes whatever was opened. */
  close(): Promise<void>;
}

export function createRedisClients(url: string | undefined, log: RedisLog): RedisClients {
  let commands: Redis | undefined;
  let subscriber: Redis | undefined;
  return {
    commands() {
      if (!url) return undefined;
      if (!commands) {
        commands = connectRedis(url, "shared connection", "commands", log);
        void warnIfUnbounded(commands, (line) => log.warn(line));
      }
      return commands;
    },
    subscriber() {
      if (!url) return undefined;
      subscriber ??= connectRedis(url, "subscriber", "subscriber", log);
      return subscriber;
    },
    async close() {
      const open = [commands, subscriber].filter((redis): redis is Redis => redis !== undefined);
      commands = subscriber = undefined;
      await Promise.all(open.map((redis) => redis.quit().catch(() => redis.disconnect())));
    },
  };
}

/**
 * A Redis connection that never makes a request wait for Redis: commands fail at once while
 * it is down (no offline queue), it reconnects by itself, and it says so in the log (once per
 * state change, not once per failed command). Named `site:<pid>:<name>` (CLIENT LIST shows
 * which process holds which connection).
 */
function connectRedis(url: string, role: string, name: string, log: RedisLog): Redis {
  const redis = new Redis(url, {
    connectionName: `site:${process.pid}:${name}`,
    lazyConnect: false,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 2_000,
    commandTimeout: 500,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
  });
  let down = false;
  redis.on("ready", () => {
    if (down) log.info(`[redis] ${role}: reconnected`);
    down = false;
  });
  redis.on("error", (error: Error) => {
    if (!down) log.error(`[redis] ${role}: unavailable (${error.message}); using the local cache meanwhile`);
    down = true;
  });
  // A connection that has never been up counts as down, so its first "ready" is logged as a connection.
  redis.once("ready", () => log.info(`[redis] ${role}: connected`));
  redis.on("close", () => {
    if (!down) log.error(`[redis] ${role}: connection lost; using the local cache meanwhile`);
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
export function warnIfUnbounded(redis: Redis, log: (line: string) => void): Promise<void> {
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
