/**
 * The tag manifest: when each tag, path or path prefix was last invalidated. An entry is
 * stale when one of its tags was invalidated at or after the moment its render started.
 * Invalidating costs one map write, whatever the number of cached entries; checking an
 * entry costs one lookup per tag plus one per segment of its path (for wildcards).
 */

export const PATH_TAG_PREFIX = "path:";

/** The implicit tag every entry for this URL path carries. */
export const pathTag = (path: string) => `${PATH_TAG_PREFIX}${path}`;

export interface InvalidationClock {
  (): number;
}

export type InvalidationKind = "tag" | "prefix";

/** Told about every invalidation made here (not about merged ones): how other instances hear of it. */
export type InvalidationListener = (kind: InvalidationKind, key: string, at: number) => void;

export class Invalidations {
  private readonly tags = new Map<string, number>();
  /** `/jobs/*` is stored as `/jobs/`; `/*` as `/`. */
  private readonly prefixes = new Map<string, number>();
  private readonly listeners: InvalidationListener[] = [];

  constructor(private readonly now: InvalidationClock = Date.now) {}

  onInvalidate(listener: InvalidationListener): void {
    this.listeners.push(listener);
  }

  revalidateTag(tag: string): number {
    const at = this.now();
    this.tags.set(tag, at);
    for (const listener of this.listeners) listener("tag", tag, at);
    return at;
  }

  /** A path (`/en/careers`) or a wildcard (`/jobs/*`, `/*`) matching every path below it. */
  revalidatePath(path: string): number {
    if (path.endsWith("/*")) {
      const at = this.now();
      const prefix = path.slice(0, -1);
      this.prefixes.set(prefix, at);
      for (const listener of this.listeners) listener("prefix", prefix, at);
      return at;
    }
    return this.revalidateTag(pathTag(path));
  }

  /** Applies an invalidation recorded elsewhere (another instance), keeping the latest time. */
  merge(kind: InvalidationKind, key: string, at: number): void {
    const map = kind === "tag" ? this.tags : this.prefixes;
    if ((map.get(key) ?? -Infinity) < at) map.set(key, at);
  }

  /** Whether anything about an entry rendered from `generatedAt` on was invalidated since. */
  isInvalidated(entry: { tags: readonly string[]; path: string; generatedAt: number }): boolean {
    for (const tag of entry.tags) {
      if ((this.tags.get(tag) ?? -Infinity) >= entry.generatedAt) return true;
    }
    if ((this.tags.get(pathTag(entry.path)) ?? -Infinity) >= entry.generatedAt) return true;
    if (this.prefixes.size === 0) return false;
    // Every prefix of the path that ends at a segment boundary: `/`, `/jobs/`, `/jobs/a/`…
    for (let slash = entry.path.indexOf("/"); slash !== -1; slash = entry.path.indexOf("/", slash + 1)) {
      if ((this.prefixes.get(entry.path.slice(0, slash + 1)) ?? -Infinity) >= entry.generatedAt) return true;
    }
    return false;
  }
}

/** Stale: its interval has elapsed, or something it depends on was invalidated since its render began. */
export function isEntryStale(
  entry: { tags: readonly string[]; path: string; generatedAt: number; revalidate: number },
  now: number,
  invalidations: Invalidations,
): boolean {
  return now - entry.generatedAt >= entry.revalidate * 1000 || invalidations.isInvalidated(entry);
}
