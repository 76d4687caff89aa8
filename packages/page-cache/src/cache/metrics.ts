import { collectDefaultMetrics, Counter, Gauge, Registry, type Histogram } from "prom-client";

import type { CacheCounters } from "./isr-cache.ts";
import type { CacheStore } from "./types.ts";

export interface CacheMetricsSource {
  pageCache: { readonly counters: CacheCounters };
  pageStore: CacheStore<unknown>;
  bypasses: () => number;
  evictions: () => number;
  /** publish_to_visible_seconds (publish-clock.ts). */
  publishToVisible?: Histogram<"via">;
}

/**
 * The metrics `/metrics` serves (prom-client): the process's own (CPU, memory, event loop
 * lag, GC; `collectDefaultMetrics`) and the page cache's. The cache keeps plain counters on
 * its hot path (a HIT increments one number); they are read here only when scraped.
 */
export function createMetricsRegistry(source: CacheMetricsSource): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const counters: Array<[string, string, () => number]> = [
    ["isr_cache_hits_total", "Pages served fresh from the cache", () => source.pageCache.counters.hits],
    ["isr_cache_stale_total", "Pages served stale while regenerating", () => source.pageCache.counters.stale],
    ["isr_cache_misses_total", "Pages rendered because nothing was cached", () => source.pageCache.counters.misses],
    [
      "isr_cache_expired_total",
      "Pages found expired by a takedown (unpublish, delete) and rendered as misses",
      () => source.pageCache.counters.expired,
    ],
    ["isr_cache_bypasses_total", "Personal requests rendered without the cache", source.bypasses],
    [
      "isr_cache_regenerations_total",
      "Background regenerations started",
      () => source.pageCache.counters.regenerations,
    ],
    [
      "isr_cache_regeneration_failures_total",
      "Regenerations that failed",
      () => source.pageCache.counters.regenerationFailures,
    ],
    ["isr_cache_evictions_total", "Entries evicted by the byte bound", source.evictions],
  ];
  for (const [name, help, read] of counters) {
    new Counter({
      name,
      help,
      registers: [registry],
      collect() {
        this.reset();
        this.inc(read());
      },
    });
  }
  const gauges: Array<[string, string, () => number]> = [
    ["isr_cache_bytes", "Bytes held by cached pages", () => source.pageStore.byteSize],
    ["isr_cache_entries", "Cached pages", () => source.pageStore.count],
  ];
  for (const [name, help, read] of gauges) {
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(read());
      },
    });
  }
  if (source.publishToVisible) registry.registerMetric(source.publishToVisible);
  return registry;
}
