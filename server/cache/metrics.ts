import type { IsrCache } from "./isr-cache.ts";
import type { CacheStore } from "./types.ts";

export interface CacheMetricsSource {
  pageCache: IsrCache<unknown>;
  pageStore: CacheStore<unknown>;
  bypasses: () => number;
  evictions: () => number;
}

/** The page cache's counters in Prometheus' text exposition format. */
export function prometheusMetrics(source: CacheMetricsSource): string {
  const { counters } = source.pageCache;
  const rows: Array<[string, "counter" | "gauge", string, number]> = [
    ["isr_cache_hits_total", "counter", "Pages served fresh from the cache", counters.hits],
    ["isr_cache_stale_total", "counter", "Pages served stale while regenerating", counters.stale],
    ["isr_cache_misses_total", "counter", "Pages rendered because nothing was cached", counters.misses],
    ["isr_cache_bypasses_total", "counter", "Personal requests rendered without the cache", source.bypasses()],
    ["isr_cache_regenerations_total", "counter", "Background regenerations started", counters.regenerations],
    ["isr_cache_regeneration_failures_total", "counter", "Regenerations that failed", counters.regenerationFailures],
    ["isr_cache_evictions_total", "counter", "Entries evicted by the byte bound", source.evictions()],
    ["isr_cache_bytes", "gauge", "Bytes held by cached pages", source.pageStore.byteSize],
    ["isr_cache_entries", "gauge", "Cached pages", source.pageStore.count],
  ];
  return rows.map(([name, type, help, value]) => `# HELP ${name} ${help}\n# TYPE ${name} ${type}\n${name} ${value}\n`).join("");
}
