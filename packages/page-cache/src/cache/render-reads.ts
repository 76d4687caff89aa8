import type { DataCache } from "./data-cache.ts";

/**
 * The API by which a render's loaders say what they read, so that the page cache knows which
 * tags and which interval the page has: one RenderReads per render (the site keeps it in React
 * Router's request context: renderReadsContext), each read recorded with its tags from
 * @cms-site/cache-tags. The response cache's `render` answers with its summary().
 */

/** One read a loader made: the tags it depends on, its interval (seconds), whether it was per user. */
export interface RecordedRead {
  tags: readonly string[];
  revalidate: number;
  /** Read on behalf of the visitor (their token): the render is personal and never shared. */
  perUser?: boolean;
}

export class RenderReads {
  readonly reads: RecordedRead[] = [];

  /** @param dataCache where cachedRead keeps answers between renders (PageCache.dataCache). */
  constructor(readonly dataCache?: DataCache) {}

  /** The render read the session or cookies: it is sent to that visitor alone. */
  dynamic = false;

  record(read: RecordedRead): void {
    this.reads.push(read);
  }

  /** Tags (each once), the shortest interval (`pageRevalidate` at most), and whether it is personal. */
  summary(pageRevalidate: number): { tags: string[]; revalidate: number; dynamic: boolean } {
    return {
      tags: [...new Set(this.reads.flatMap((read) => read.tags))],
      revalidate: Math.min(pageRevalidate, ...this.reads.map((read) => read.revalidate)),
      dynamic: this.dynamic || this.reads.some((read) => read.perUser),
    };
  }
}

export interface CachedReadOptions<T> {
  /** The render's record (RenderReads). */
  reads: RenderReads;
  /** The data cache; the record's (RenderReads.dataCache) by default; none: every read goes to its source. */
  dataCache?: DataCache;
  /** What identifies the read at its source (the request URL, say). */
  key: string;
  /** The tags known before the answer (the type, the list, the document asked for). */
  tags: readonly string[];
  /** How long the answer may be kept (seconds); 0: never kept. */
  revalidate: number;
  /** The site path the data belongs to, for path revalidation ("" for none). */
  path?: string;
  /** Reads the source. */
  fetch: () => Promise<T>;
  /** Tags learnt from the answer (the documents a list returned). */
  tagsOf?: (value: T) => readonly string[];
}

/**
 * Reads through the data cache (fetched once for concurrent callers, never stale) and records the
 * read's tags for the render, whether it came from the cache or the source.
 */
export async function cachedRead<T>(options: CachedReadOptions<T>): Promise<T> {
  const fresh = async () => {
    const value = await options.fetch();
    return { value, tags: [...new Set([...options.tags, ...(options.tagsOf?.(value) ?? [])])] };
  };
  const dataCache = options.dataCache ?? options.reads.dataCache;
  const answer =
    dataCache && options.revalidate > 0
      ? await dataCache.load(
          options.key,
          { path: options.path ?? "", tags: [...options.tags], revalidate: options.revalidate },
          fresh,
        )
      : await fresh();
  options.reads.record({ tags: answer.tags, revalidate: options.revalidate });
  return answer.value;
}
