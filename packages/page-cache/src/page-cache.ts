import type { Redis } from "ioredis";
import type { Registry } from "prom-client";

import type { Revalidator } from "./revalidation/revalidator.ts";
import { BudgetedStore } from "./cache/budgeted-store.ts";
import { cachedResponseCodec } from "./cache/cached-response-codec.ts";
import { DataCache } from "./cache/data-cache.ts";
import { Invalidations } from "./cache/invalidations.ts";
import { IsrCache } from "./cache/isr-cache.ts";
import { MemoryStore } from "./cache/memory-store.ts";
import { createMetricsRegistry } from "./cache/metrics.ts";
import { PublishClock } from "./cache/publish-clock.ts";
import { InvalidationBus } from "./cache/redis/invalidation-bus.ts";
import { redisRemoteCache } from "./cache/redis/remote-cache.ts";
import { isNotFound, type CachedResponse } from "./cache/response-cache.ts";
import { warmStart, type WarmStartSource } from "./cache/warm-start.ts";

/**
 * The page cache and everything it is made of, built in one place: the byte-bounded stores
 * (pages, not-found answers, CMS data), the invalidation records, the ISR cache, the data
 * cache, with Redis the shared layer and the invalidation bus, the revalidator that the
 * revalidation route acts on, the counters /metrics reads, and the warm start. A site builds it
 * once per process and hands it to what reads it (the middleware, the HIT fast path) and what
 * changes it (the revalidation handler).
 */

/**
 * What the cache logs through: the site's logger (pino's fits as it is). Injected, never a
 * module global, so two caches in one process (tests, a second site) log where they are told.
 */
export interface PageCacheLog {
  info(line: string): void;
  error(line: string): void;
}

/** Everything the cache is told by the site that uses it: sizes, Redis, and the site's policy. */
export interface PageCacheOptions {
  /** What the in-process stores may hold in all (bytes): pages 70 %, not-found answers 5 %, CMS data 25 %. */
  maxBytes: number;
  /**
   * The longest interval of a page and of any CMS fetch (seconds): an invalidation record is kept
   * that long plus a margin, no longer.
   */
  maxRevalidateSeconds: number;
  /** Keep CMS answers between requests (production); without it every render reads the CMS afresh. */
  dataCache?: boolean;
  /**
   * With Redis, instances share rendered pages and locks (`commands`) and hear each other's
   * invalidations (`subscriber`, a connection of its own for SUBSCRIBE).
   */
  redis?: { commands: Redis; subscriber?: Redis };
  /** s-maxage a CDN is given; undefined: each entry's own interval (decision 0028). */
  cdnMaxAge?: number;
  /** What warm() requests after a start: the site's sources, up to `max` paths, `concurrency` at a time. */
  warmStart?: { sources: WarmStartSource[]; max: number; concurrency?: number };
  /** Failed regenerations (error) and the warm start's line (info); silent without one. */
  logger?: PageCacheLog;
}

export interface PageCache {
  /** The rendered pages (HIT, STALE, MISS). */
  pages: IsrCache<CachedResponse>;
  /** CMS answers; undefined in development, which always reads the CMS afresh. */
  dataCache: DataCache | undefined;
  /** What a revalidation request changes: the invalidation records (and, with Redis, every instance's). */
  revalidator: Revalidator;
  /** /metrics: the process's metrics and the cache's counters. */
  metrics: Registry;
  /** Counts a request the cache let through as personal (BYPASS). */
  countBypass(): void;
  /** Requests from `selfUrl`, in the background, the paths of the warm-start sources (PageCacheOptions.warmStart). */
  warm(selfUrl: string): void;
  /** publish_to_visible_seconds: what a revalidation's commit time was, and when it became visible. */
  publishClock: PublishClock;
  /**
   * What CDN-Cache-Control's s-maxage is (PageCacheOptions.cdnMaxAge; undefined: the entry's
   * interval). Decision 0028 of the site's repository (publish to visible at the edge).
   */
  cdnMaxAge: number | undefined;
  /**
   * Re-renders the stale cached pages of these paths (response-cache.ts,
   * createPageRefresher): the app hands its refresher in (useRefresher) once it is built.
   */
  refresh(paths: readonly string[]): Promise<number>;
  useRefresher(refresher: (paths: readonly string[]) => Promise<number>): void;
}

/** A page's life at a CDN that is purged on every publish (a site's usual cdnMaxAge then). */
export const PURGED_CDN_MAX_AGE_SECONDS = 86_400;

export function createPageCache(options: PageCacheOptions): PageCache {
  const log = options.logger;
  /** Records are kept for the longest interval (the page's and every CMS fetch's) plus a margin, no longer. */
  const invalidations = new Invalidations({
    maxRevalidateSeconds: options.maxRevalidateSeconds,
  });
  let evictions = 0;
  let bypasses = 0;
  let refresher: ((paths: readonly string[]) => Promise<number>) | undefined;
  const publishClock = new PublishClock();
  /** Pages get 70 % of the budget, not-found answers 5 % of their own (a scan of random paths evicts only those), CMS data 25 %. */
  const pageStore = new BudgetedStore<CachedResponse>(
    new MemoryStore(options.maxBytes * 0.7, () => evictions++),
    new MemoryStore(options.maxBytes * 0.05),
    (entry) => isNotFound(entry.value),
  );

  // With Redis the in-process store stays in front as the local layer.
  const commands = options.redis?.commands;
  const subscriber = options.redis?.subscriber;
  const bus = commands && subscriber ? new InvalidationBus(invalidations, commands, subscriber) : undefined;

  const pages = new IsrCache<CachedResponse>({
    store: pageStore,
    invalidations,
    remote: commands ? redisRemoteCache(commands, cachedResponseCodec) : undefined,
    onError: (key, error) => log?.error(`[cache] regenerating ${key} failed; serving the stale page ${String(error)}`),
    // A publish at an address whose cached answer is a 404 is shown to the next visitor (decision 0010).
    expiresWhenInvalidated: isNotFound,
  });

  return {
    pages,
    dataCache: options.dataCache
      ? new DataCache(new MemoryStore<unknown>(options.maxBytes * 0.25), invalidations)
      : undefined,
    revalidator: {
      // 'max': stale-while-revalidate (entries go stale, served once more); { expire: 0 }: entries
      // are expired, never served again (takedowns; docs/decisions/0010-takedowns-expire.md).
      revalidatePath: (path, profile = "max") => invalidations.revalidatePath(path, { expire: profile !== "max" }),
      revalidateTag: (tag, profile) => invalidations.revalidateTag(tag, { expire: profile !== "max" }),
      shared: () => bus?.sent() ?? Promise.resolve(),
    },
    metrics: createMetricsRegistry({
      pageCache: pages,
      pageStore,
      bypasses: () => bypasses,
      evictions: () => evictions,
      publishToVisible: publishClock.histogram,
    }),
    publishClock,
    cdnMaxAge: options.cdnMaxAge,
    refresh: (paths) => refresher?.(paths) ?? Promise.resolve(0),
    useRefresher(next) {
      refresher = next;
    },
    countBypass: () => void bypasses++,
    warm(selfUrl) {
      const warm = options.warmStart;
      if (!warm || warm.max === 0) return;
      void warmStart({
        sources: warm.sources,
        request: async (path) => {
          const response = await fetch(`${selfUrl}${path}`, { redirect: "manual" });
          await response.arrayBuffer();
        },
        max: warm.max,
        concurrency: warm.concurrency ?? 4,
        log: (line) => log?.info(line),
      });
    },
  };
}
