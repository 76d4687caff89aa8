import type { Redis } from "ioredis";

import type { CacheEntry } from "../types.ts";

/**
 * The shared half of the cache: entries in Redis, so a page rendered by one instance serves
 * the others; and a short lock so one instance at a time regenerates a key. Every call
 * gives up quietly when Redis is down or slow (the local layer carries on).
 */
export interface RemoteCache<V> {
  fetch(key: string): Promise<CacheEntry<V> | undefined>;
  store(key: string, entry: CacheEntry<V>): Promise<void>;
  /** True when this instance may regenerate `key` now. */
  lock(key: string, ttlMs: number): Promise<boolean>;
  /** Gives the lock back (only if this instance still holds it). */
  unlock(key: string): Promise<void>;
}

/** How long Redis keeps an entry past its interval, so stale entries can still be served while regenerating. */
const STALE_KEEP_SECONDS = 24 * 60 * 60;

export function redisRemoteCache<V>(
  redis: Redis,
  codec: { encode(value: V): string; decode(text: string): V },
  prefix = "isr",
): RemoteCache<V> {
  const instance = `${process.pid}-${Math.random().toString(36).slice(2)}`;
  const unlock = (key: string) =>
    orFallback(async () => {
      await redis.eval(
        "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0",
        1,
        `${prefix}:lock:${key}`,
        instance,
      );
    }, undefined);
  return {
    fetch: (key) =>
      orFallback(async () => {
        const text = await redis.get(`${prefix}:entry:${key}`);
        if (!text) return undefined;
        const stored = JSON.parse(text) as Omit<CacheEntry<V>, "value"> & { value: string };
        return { ...stored, value: codec.decode(stored.value) };
      }, undefined),
    store: (key, entry) =>
      orFallback(async () => {
        const text = JSON.stringify({ ...entry, value: codec.encode(entry.value) });
        await redis.set(`${prefix}:entry:${key}`, text, "EX", entry.revalidate + STALE_KEEP_SECONDS);
      }, undefined),
    lock: async (key, ttlMs) => {
      try {
        return (await redis.set(`${prefix}:lock:${key}`, instance, "PX", ttlMs, "NX")) === "OK";
      } catch {
        // Without Redis every instance regenerates for itself: better than none doing it.
        if (redis.status !== "ready") return true;
        // Connected but slow (the command timed out, as under load): the SET may have run, and
        // another instance may hold the lock. Not ours, then; the stale entry is served and the
        // next request asks again. Given back in case it was taken (queued after the SET).
        void unlock(key);
        return false;
      }
    },
    unlock,
  };
}

/** Runs a Redis command; on any failure (down, slow) answers `fallback` instead. */
async function orFallback<T>(work: () => Promise<T>, fallback: T): Promise<T> {
  try {
    return await work();
  } catch {
    return fallback;
  }
}
