import { isEntryStale, type InvalidationStamp, type Invalidations } from "./invalidations.ts";
import type { CacheStore } from "./types.ts";

/**
 * The data cache for CMS fetches, keyed by the request that reaches the CMS. Unlike the
 * page cache it never hands out stale data: a render that runs because its page went
 * stale must see the new content, or the page would be stored fresh with old data. A stale
 * entry is therefore fetched again (once for all concurrent callers); if that fails, the
 * error goes up and the page cache keeps serving the stale page (stale-if-error there).
 */

export interface DataCacheMeta {
  /** The site path the data belongs to ('' for none): path revalidation and wildcards match it. */
  path: string;
  tags: string[];
  revalidate: number;
}

export class DataCache {
  private readonly inFlight = new Map<string, { work: Promise<unknown>; seen: InvalidationStamp }>();

  constructor(
    private readonly store: CacheStore<unknown>,
    private readonly invalidations: Invalidations,
    private readonly now: () => number = Date.now,
  ) {}

  async load<T>(key: string, meta: DataCacheMeta, fetchFresh: () => Promise<T>): Promise<T> {
    const entry = this.store.get(key);
    if (entry && !isEntryStale(entry, this.now(), this.invalidations)) return entry.value as T;
    const running = this.inFlight.get(key);
    // Join a fetch in flight only if nothing it depends on was invalidated since it began.
    if (running && !this.invalidations.isInvalidated({ ...meta, seen: running.seen })) {
      return running.work as Promise<T>;
    }

    const generatedAt = this.now();
    const seen = this.invalidations.stamp();
    const work = fetchFresh().then((value) => {
      const size = JSON.stringify(value).length * 2 + key.length * 2 + 256;
      this.store.set(key, { value, generatedAt, seen, size, ...meta });
      return value;
    });
    this.inFlight.set(key, { work, seen });
    const done = () => {
      if (this.inFlight.get(key)?.work === work) this.inFlight.delete(key);
    };
    work.then(done, done);
    return work;
  }
}
