import type { InvalidationStamp } from "./invalidations.ts";

/** One cached result: a rendered page (response cache) or a CMS answer (data cache). */
export interface CacheEntry<V> {
  value: V;
  /** Tags of everything the render used (CMS fetch tags); the path tag is implicit. */
  tags: string[];
  /** The URL path the entry is for (what path revalidation and wildcards match). */
  path: string;
  /** Seconds after generatedAt when the entry goes stale on its own. */
  revalidate: number;
  /** When the render that produced it started (ms, this process's clock): its interval counts from it. */
  generatedAt: number;
  /** What the render knew of invalidations when it started; without it the entry counts as stale. */
  seen?: InvalidationStamp;
  /** Bytes it takes, counted honestly (body, headers, tags): what the LRU bound uses. */
  size: number;
}

export interface CacheStore<V> {
  get(key: string): CacheEntry<V> | undefined;
  set(key: string, entry: CacheEntry<V>): void;
  delete(key: string): void;
  readonly byteSize: number;
  readonly count: number;
}
