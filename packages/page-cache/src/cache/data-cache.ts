import { isEntryStale, type InvalidationStamp, type Invalidations } from "./invalidations.ts";
import type { CacheStore } from "./types.ts";

/**
 * The data cache for CMS fetches, keyed by the request that reaches the CMS. Unlike the
 * page cache it never hands out stale data: a render that runs because its page went
 * stale must see the new content, or the page would be stored fresh with old data. A stale
 * entry is therefore fetched again (once for all concurrent callers); if that fails, the
 * error goes up and the page cache keeps serving the stale page (stale-if-error there).
 *
 * Each answer is kept with the tags recorded from it (app/lib/cms/client.server.ts,
 * recordedTags): they decide when it goes stale, and a hit reports them to the render as the
 * fetch did.
 */

export interface DataCacheMeta {
  /** The site path the data belongs to ('' for none): path revalidation and wildcards match it. */
  path: string;
  /** The tags known before the answer (its type, its list, the document asked for). */
  tags: string[];
  revalidate: number;
}

/** An answer and the tags recorded from it. */
export interface Recorded<T> {
  value: T;
  tags: string[];
}

export class DataCache {
  private readonly inFlight = new Map<string, { work: Promise<Recorded<unknown>>; seen: InvalidationStamp }>();

  constructor(
    private readonly store: CacheStore<unknown>,
    private readonly invalidations: Invalidations,
    private readonly now: () => number = Date.now,
  ) {}

  async load<T>(key: string, meta: DataCacheMeta, fetchFresh: () => Promise<Recorded<T>>): Promise<Recorded<T>> {
    const entry = this.store.get(key);
    if (entry && !isEntryStale(entry, this.now(), this.invalidations)) {
      return { value: entry.value as T, tags: entry.tags };
    }
    const running = this.inFlight.get(key);
    // Join a fetch in flight only if nothing it depends on was invalidated since it began: what is
    // known before its answer now, the documents it read once it is in.
    if (running && !this.invalidations.isInvalidated({ ...meta, seen: running.seen })) {
      const joinedAt = this.invalidations.stamp();
      const answer = (await running.work) as Recorded<T>;
      const hitSince = (seen: InvalidationStamp) =>
        this.invalidations.isInvalidated({ path: meta.path, tags: answer.tags, seen });
      // Something it read was invalidated after the fetch began and before this caller joined: the
      // caller must not get it (its render may have begun after that invalidation). Invalidated
      // after the joining too, it is the caller's to render again like any stale page.
      if (!hitSince(running.seen) || hitSince(joinedAt)) return answer;
      // Its entry is stale too (same stamp, same tags): this fetches afresh, or joins whoever already does.
      return this.load(key, meta, fetchFresh);
    }

    const generatedAt = this.now();
    const seen = this.invalidations.stamp();
    const work = fetchFresh().then((answer) => {
      const { value, tags } = answer;
      const size =
        JSON.stringify(value).length * 2 + key.length * 2 + tags.reduce((sum, tag) => sum + tag.length * 2, 0) + 256;
      this.store.set(key, { value, generatedAt, seen, size, path: meta.path, tags, revalidate: meta.revalidate });
      return answer;
    });
    this.inFlight.set(key, { work, seen });
    const done = () => {
      if (this.inFlight.get(key)?.work === work) this.inFlight.delete(key);
    };
    work.then(done, done);
    return work;
  }
}
