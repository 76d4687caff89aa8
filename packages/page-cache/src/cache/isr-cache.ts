import { entryState, type EntryState, type InvalidationStamp, type Invalidations } from "./invalidations.ts";
import type { RemoteCache } from "./redis/remote-cache.ts";
import type { CacheEntry, CacheStore } from "./types.ts";

/**
 * Incremental static regeneration over a store: fresh entries are served (HIT), stale ones
 * are served at once (STALE) and regenerated in the background, misses render once for all
 * concurrent callers (MISS). A failed regeneration keeps the stale entry and is retried
 * with backoff (stale-if-error).
 *
 * An entry hit by an expiring invalidation (a takedown: unpublish, delete) is never served
 * again, here or from the shared layer: it is dropped and the key is rendered as a miss, once
 * for all the callers who wait (MISS); a failed render is answered as such, not with the old
 * entry. Work begun before the expiry (a render in flight) is not joined by callers who come
 * after it, and its result is not stored (docs/decisions/0010-takedowns-expire.md).
 *
 * A value that `expiresWhenInvalidated` picks (a not-found answer) is expired by any invalidation
 * of what it depends on, not only by an expiring one: a publish at an address whose cached answer
 * was a 404 must be shown to the next visitor, not that 404 once more (STALE). Its render is cheap
 * and nobody loses a page if it waits for it. Past its interval alone it is stale, as any entry.
 */

export type CacheStatus = "HIT" | "STALE" | "MISS";

/** What a render produced, and whether it may be shared. */
export interface Rendered<V> {
  value: V;
  /** False for anything that must not be shared: per-user, Set-Cookie, 5xx. */
  cacheable: boolean;
  /** True when the render failed in a way that should keep a stale entry (5xx, CMS down). */
  failed?: boolean;
  tags: string[];
  revalidate: number;
  size: number;
  /**
   * False for what only this instance keeps (a not-found answer): never written to the shared
   * layer, so strangers asking for random paths cannot fill Redis.
   */
  shareable?: boolean;
}

export interface CacheCounters {
  hits: number;
  stale: number;
  misses: number;
  /** Entries found expired (and so rendered as misses): each is counted in misses too. */
  expired: number;
  regenerations: number;
  regenerationFailures: number;
}

export interface IsrCacheOptions<V> {
  store: CacheStore<V>;
  invalidations: Invalidations;
  now?: () => number;
  /** First retry delay after a failed regeneration (ms); doubles up to maxRetryDelayMs. */
  retryDelayMs?: number;
  maxRetryDelayMs?: number;
  onError?: (key: string, error: unknown) => void;
  /** Shared entries and regeneration locks across instances (Redis); none: this process only. */
  remote?: RemoteCache<V>;
  /** How long one instance may hold a key's regeneration lock (ms). */
  lockMs?: number;
  /**
   * Values an invalidation expires rather than marks stale (not-found answers): hit by a
   * publish's path or tags, they are rendered again before anyone is answered.
   */
  expiresWhenInvalidated?: (value: V) => boolean;
}

export interface Served<V> {
  value: V;
  status: CacheStatus;
  entry?: CacheEntry<V>;
  /** The render failed (5xx): the value is the error response, never stored. */
  failed?: boolean;
}

export class IsrCache<V> {
  readonly counters: CacheCounters = {
    hits: 0,
    stale: 0,
    misses: 0,
    expired: 0,
    regenerations: 0,
    regenerationFailures: 0,
  };
  /** Renders under way by key, with what the invalidation record was when each began. */
  private readonly inFlight = new Map<string, { work: Promise<Served<V>>; seen: InvalidationStamp }>();
  private readonly failures = new Map<string, { count: number; retryAt: number }>();
  private readonly now: () => number;

  constructor(private readonly options: IsrCacheOptions<V>) {
    this.now = options.now ?? Date.now;
  }

  /** Fresh, stale or expired (never to be served again). */
  stateOf(entry: CacheEntry<V>): EntryState {
    const state = entryState(entry, this.now(), this.options.invalidations);
    if (state !== "stale" || !this.options.expiresWhenInvalidated?.(entry.value)) return state;
    return this.options.invalidations.isInvalidated(entry) ? "expired" : state;
  }

  isStale(entry: CacheEntry<V>): boolean {
    return this.stateOf(entry) !== "fresh";
  }

  /** The entry for `key` if it is fresh (a HIT, counted), without rendering anything. */
  peekFresh(key: string): CacheEntry<V> | undefined {
    const entry = this.options.store.get(key);
    if (!entry || this.isStale(entry)) return undefined;
    this.counters.hits++;
    return entry;
  }

  /**
   * The cached value for `key`, or a fresh render. `render` must not depend on who asks:
   * the same result is handed to every concurrent caller and to later visitors.
   */
  async get(key: string, path: string, render: () => Promise<Rendered<V>>): Promise<Served<V>> {
    let entry = this.options.store.get(key);
    let state = entry && this.stateOf(entry);
    if (entry && state === "expired") {
      // Taken down: gone for good, here; the shared layer may hold a newer render.
      this.counters.expired++;
      this.options.store.delete(key);
      entry = undefined;
    }
    if (entry && state === "stale" && this.options.remote) {
      // Stale here: another instance may have rendered it again already (a revalidation renders
      // its pages before it is answered, decision 0028). One round trip, on stale answers only.
      const shared = await this.options.remote.fetch(key);
      if (shared && this.stateOf(shared) === "fresh") {
        this.options.store.set(key, shared);
        entry = shared;
        state = "fresh";
      }
    } else if (!entry && this.options.remote) {
      // Rendered by another instance? Not if it was rendered before an expiring invalidation.
      const shared = await this.options.remote.fetch(key);
      const sharedState = shared && this.stateOf(shared);
      if (shared && sharedState !== "expired") {
        this.options.store.set(key, shared);
        entry = shared;
        state = sharedState;
      } else if (shared && state !== "expired") {
        this.counters.expired++;
      }
    }
    if (entry) {
      if (state === "fresh") {
        this.counters.hits++;
        return { value: entry.value, status: "HIT", entry };
      }
      this.counters.stale++;
      this.regenerateInBackground(key, path, render);
      return { value: entry.value, status: "STALE", entry };
    }
    this.counters.misses++;
    const running = this.inFlight.get(key);
    // Join a render under way, unless it began before an expiring invalidation, or before an
    // invalidation of this path (a publish there: its result may be the old 404, and this caller
    // asked after the publish).
    const { invalidations } = this.options;
    if (
      running &&
      !invalidations.expiredSince(running.seen) &&
      !invalidations.isInvalidated({ tags: [], path, seen: running.seen })
    ) {
      const result = await running.work;
      return { ...result, status: this.overtaken(result.entry) ? "STALE" : "MISS" };
    }
    return this.track(key, this.renderAndStore(key, path, render));
  }

  /**
   * Renders `key` again now if it is cached (here or in the shared layer) and stale, and resolves
   * once that is done: true when a fresh entry is now stored. Fresh, expired (a takedown: its next
   * visitor renders it) or not cached: nothing is done (false). A render already under way here is
   * waited for first; one begun before the invalidation leaves the entry stale, so it is rendered again.
   */
  async refresh(key: string, path: string, render: () => Promise<Rendered<V>>): Promise<boolean> {
    const running = this.inFlight.get(key);
    if (running) await running.work.catch(() => undefined);
    const current = this.options.store.get(key) ?? (await this.options.remote?.fetch(key));
    if (!current || this.stateOf(current) !== "stale") return false;
    // Rendered here whatever the regeneration lock says: another instance's background render
    // may have begun before it heard the invalidation, and the caller answers only after this.
    this.counters.regenerations++;
    const served = await this.track(key, this.renderAndStore(key, path, render));
    return !served.failed && served.entry !== undefined;
  }

  private regenerateInBackground(key: string, path: string, render: () => Promise<Rendered<V>>) {
    if (this.inFlight.has(key)) return;
    const failure = this.failures.get(key);
    if (failure && this.now() < failure.retryAt) return;
    this.track(key, this.regenerate(key, path, render)).then(
      (served) => {
        if (served.failed) this.recordFailure(key, new Error(`regeneration of ${key} failed`));
      },
      (error: unknown) => this.recordFailure(key, error),
    );
  }

  /** Regenerates a stale key, unless another instance already did or is doing it. */
  private async regenerate(key: string, path: string, render: () => Promise<Rendered<V>>): Promise<Served<V>> {
    const remote = this.options.remote;
    if (!remote) {
      this.counters.regenerations++;
      return this.renderAndStore(key, path, render);
    }
    const local = this.options.store.get(key);
    const freshShared = async () => {
      const shared = await remote.fetch(key);
      return shared && !this.isStale(shared) && shared.generatedAt > (local?.generatedAt ?? -Infinity)
        ? shared
        : undefined;
    };
    const adopt = (shared: CacheEntry<V>): Served<V> => {
      this.options.store.set(key, shared);
      return { value: shared.value, status: "MISS", entry: shared };
    };
    const before = await freshShared();
    if (before) return adopt(before);
    if (local && !(await remote.lock(key, this.options.lockMs ?? 30_000))) {
      // Another instance is regenerating it; its result reaches us through Redis.
      return { value: local.value, status: "STALE" };
    }
    try {
      // It may have finished between our look and our lock.
      const meanwhile = await freshShared();
      if (meanwhile) return adopt(meanwhile);
      this.counters.regenerations++;
      return await this.renderAndStore(key, path, render);
    } finally {
      await remote.unlock(key);
    }
  }

  private track(key: string, work: Promise<Served<V>>): Promise<Served<V>> {
    // Taken now, no later than the render's own stamp: conservative for the join check.
    this.inFlight.set(key, { work, seen: this.options.invalidations.stamp() });
    const done = () => {
      if (this.inFlight.get(key)?.work === work) this.inFlight.delete(key);
    };
    work.then(done, done);
    return work;
  }

  private async renderAndStore(key: string, path: string, render: () => Promise<Rendered<V>>): Promise<Served<V>> {
    // The start time, not the end: an invalidation during the render leaves the entry stale.
    const generatedAt = this.now();
    const seen = this.options.invalidations.stamp();
    const rendered = await render();
    if (rendered.failed) return { value: rendered.value, status: "MISS", failed: true };
    if (rendered.cacheable) {
      const entry: CacheEntry<V> = {
        value: rendered.value,
        tags: rendered.tags,
        path,
        revalidate: rendered.revalidate,
        generatedAt,
        seen,
        size: rendered.size,
      };
      // Expired before it was done (a takedown during the render): handed to those who asked
      // before the takedown, without an entry (so not as something a CDN may keep), and never
      // stored over what a render begun after it may have stored.
      if (this.stateOf(entry) === "expired") return { value: rendered.value, status: "MISS" };
      this.options.store.set(key, entry);
      // A render an invalidation overtook is kept here (served stale, regenerated) but not shared:
      // in Redis it could replace the fresh render another instance stored meanwhile (decision 0028).
      if (rendered.shareable !== false && this.stateOf(entry) === "fresh") await this.options.remote?.store(key, entry);
      this.failures.delete(key);
      // Overtaken: answered STALE, so no CDN keeps it (response-cache.ts: a STALE answer is
      // no-store at the edge), though the visitor who asked gets it now.
      return { value: rendered.value, status: this.overtaken(entry) ? "STALE" : "MISS", entry };
    }
    return { value: rendered.value, status: "MISS" };
  }

  /** A render an invalidation overtook: stored, but no longer fresh by the time it is answered. */
  private overtaken(entry: CacheEntry<V> | undefined): boolean {
    return entry !== undefined && this.stateOf(entry) !== "fresh";
  }

  private recordFailure(key: string, error: unknown) {
    this.counters.regenerationFailures++;
    const count = (this.failures.get(key)?.count ?? 0) + 1;
    const base = this.options.retryDelayMs ?? 1_000;
    const delay = Math.min(base * 2 ** (count - 1), this.options.maxRetryDelayMs ?? 60_000);
    this.failures.set(key, { count, retryAt: this.now() + delay });
    this.options.onError?.(key, error);
  }
}
