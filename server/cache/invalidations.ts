import { randomUUID } from "node:crypto";

/**
 * The invalidation record: which tags, paths and path prefixes were invalidated, in an order
 * that does not depend on any clock. Every invalidation applied here gets the next number of
 * a local counter (`seq`); one shared through Redis also carries the version Redis gave it
 * (server/cache/redis/invalidation-bus.ts). A render takes a stamp when it starts: the local
 * counter and the shared version up to which it has seen every invalidation. An entry is stale
 * when something it depends on was invalidated after its stamp: compared on the local counter
 * for entries rendered by this process, on the shared version for entries rendered by another
 * one. Clocks are only used for intervals and for forgetting old records
 * (docs/decisions/0007-invalidation-clock-and-pruning.md).
 *
 * Invalidating costs one map write, whatever the number of cached entries; checking an entry
 * costs one lookup per tag plus one per segment of its path (for wildcards). Records older
 * than the longest interval plus a margin are forgotten, so memory does not grow with the
 * number of invalidations ever made; forgetting one raises a floor under which every entry
 * counts as stale, so forgetting can never make a stale entry look fresh.
 */

export const PATH_TAG_PREFIX = "path:";

/** The implicit tag every entry for this URL path carries. */
export const pathTag = (path: string) => `${PATH_TAG_PREFIX}${path}`;

export interface InvalidationClock {
  (): number;
}

export type InvalidationKind = "tag" | "prefix";

/** What a render knew of invalidations when it started; stored on the entry it produced. */
export interface InvalidationStamp {
  /** The Invalidations (process) that took it. */
  origin: string;
  /** Its local counter: that process compares its own entries on it. */
  seq: number;
  /** Every shared invalidation up to this version had been applied: other processes compare on it. */
  version: number;
}

/** Told about every invalidation made here (not about ones heard from others): how other instances hear of it. */
export type InvalidationListener = (kind: InvalidationKind, key: string, seq: number) => void;

export interface InvalidationsOptions {
  now?: InvalidationClock;
  /**
   * The longest interval any entry may have (seconds): the page's and every data fetch's.
   * An entry asking for more goes stale after this long all the same.
   */
  maxRevalidateSeconds?: number;
  /** How much longer than maxRevalidateSeconds records are kept (ms): slack for clock steps and skew. */
  staleWindowMs?: number;
  /** At most this many tags (and as many prefixes) are remembered; the oldest go first. */
  maxKeys?: number;
  /** Names this process in stamps; random unless a test sets it. */
  origin?: string;
}

export const DEFAULT_MAX_REVALIDATE_SECONDS = 3_600;

/** The latest invalidation of one tag or prefix. */
interface Mark {
  /** Local counter when it was applied here. */
  seq: number;
  /** Highest shared version known for this key (0: none yet). */
  version: number;
  /** Local counter of an invalidation made here that Redis has not numbered yet (0: none). */
  unshared: number;
  /** Local time it was last applied (ms): only for forgetting it. */
  at: number;
  /** `at` when it was queued for forgetting. */
  queuedAt: number;
}

/** Marks by key, and the keys in the order they are to be forgotten (each once). */
class Marks {
  readonly map = new Map<string, Mark>();
  private queue: string[] = [];
  private head = 0;

  /** The key's mark, created if missing, applied at `at`. */
  touch(key: string, at: number): Mark {
    let mark = this.map.get(key);
    if (mark === undefined) {
      mark = { seq: 0, version: 0, unshared: 0, at, queuedAt: at };
      this.map.set(key, mark);
      this.queue.push(key);
    }
    mark.at = at;
    return mark;
  }

  /** Forgets marks applied at or before `cutoff`, and the oldest beyond `maxKeys`. */
  prune(cutoff: number, maxKeys: number, forget: (mark: Mark) => void) {
    while (this.head < this.queue.length) {
      const key = this.queue[this.head] as string;
      const mark = this.map.get(key) as Mark;
      if (mark.at > mark.queuedAt) {
        // Applied again since it was queued: back of the queue (a second chance).
        this.head++;
        mark.queuedAt = mark.at;
        this.queue.push(key);
      } else if (mark.at <= cutoff || this.map.size > maxKeys) {
        this.head++;
        this.map.delete(key);
        forget(mark);
      } else {
        break; // everything behind it was queued later
      }
    }
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
  }
}

export class Invalidations {
  readonly origin: string;
  readonly maxRevalidateSeconds: number;
  /** Records this old (ms) are forgotten. */
  readonly horizonMs: number;
  private readonly maxKeys: number;
  private readonly now: InvalidationClock;
  private readonly tags = new Marks();
  /** `/jobs/*` is stored as `/jobs/`; `/*` as `/`. */
  private readonly prefixes = new Marks();
  private readonly listeners: InvalidationListener[] = [];
  private seq = 0;
  /** Every shared version up to this one has been applied here (or forgotten under the floors). */
  private version = 0;
  /** Own entries stamped below it are stale: something they may depend on was forgotten. */
  private seqFloor = 0;
  /** Other processes' entries stamped below it are stale, for the same reason. */
  private versionFloor = 0;
  /**
   * Non-zero: invalidations made here up to this local number may never reach the others one
   * by one (forgotten before Redis numbered them, or Redis lost its record). Until a purge
   * covering them is shared, other processes' entries are not trusted here.
   */
  private purgeNeeded = 0;

  constructor(options: InvalidationsOptions | InvalidationClock = {}) {
    const settings = typeof options === "function" ? { now: options } : options;
    this.now = settings.now ?? Date.now;
    this.origin = settings.origin ?? randomUUID();
    this.maxRevalidateSeconds = settings.maxRevalidateSeconds ?? DEFAULT_MAX_REVALIDATE_SECONDS;
    this.horizonMs = this.maxRevalidateSeconds * 1000 + (settings.staleWindowMs ?? 60_000);
    this.maxKeys = settings.maxKeys ?? 50_000;
  }

  onInvalidate(listener: InvalidationListener): void {
    this.listeners.push(listener);
  }

  revalidateTag(tag: string): void {
    this.local("tag", tag);
  }

  /** A path (`/en/careers`) or a wildcard (`/jobs/*`, `/*`) matching every path below it. */
  revalidatePath(path: string): void {
    if (path.endsWith("/*")) this.local("prefix", path.slice(0, -1));
    else this.local("tag", pathTag(path));
  }

  /** What a render starting now knows; store it on the entry. */
  stamp(): InvalidationStamp {
    return { origin: this.origin, seq: this.seq, version: this.version };
  }

  /** Whether anything the entry depends on was invalidated after its render began. */
  isInvalidated(entry: { tags: readonly string[]; path: string; seen?: InvalidationStamp }): boolean {
    const seen = entry.seen;
    // Unstamped (written by an older release): nothing says what it knew.
    if (seen === undefined) return true;
    const own = seen.origin === this.origin;
    if (own ? seen.seq < this.seqFloor : seen.version < this.versionFloor || this.purgeNeeded !== 0) return true;
    const tags = this.tags.map;
    for (const tag of entry.tags) {
      if (this.after(tags.get(tag), own, seen)) return true;
    }
    if (this.after(tags.get(pathTag(entry.path)), own, seen)) return true;
    const prefixes = this.prefixes.map;
    if (prefixes.size === 0) return false;
    // Every prefix of the path that ends at a segment boundary: `/`, `/jobs/`, `/jobs/a/`…
    for (let slash = entry.path.indexOf("/"); slash !== -1; slash = entry.path.indexOf("/", slash + 1)) {
      if (this.after(prefixes.get(entry.path.slice(0, slash + 1)), own, seen)) return true;
    }
    return false;
  }

  // ---- What the invalidation bus feeds in (server/cache/redis/invalidation-bus.ts) ----

  get sharedVersion(): number {
    return this.version;
  }

  get localSeq(): number {
    return this.seq;
  }

  /** Whether a purge must be shared before other processes' entries are trusted again. */
  get needsPurge(): boolean {
    return this.purgeNeeded !== 0;
  }

  /** How many tags and prefixes are remembered. */
  get size(): { tags: number; prefixes: number } {
    return { tags: this.tags.map.size, prefixes: this.prefixes.map.size };
  }

  /** Every shared version up to `version` has now been applied. */
  advanceShared(version: number): void {
    if (version > this.version) this.version = version;
  }

  /** An invalidation another process made, numbered `version` by Redis. */
  applyShared(kind: InvalidationKind, key: string, version: number): void {
    // At or below the watermark: applied already (and perhaps forgotten since, under the floors).
    if (version <= this.version) return;
    const marks = this.marks(kind);
    if ((marks.map.get(key)?.version ?? 0) >= version) return;
    const mark = marks.touch(key, this.now());
    mark.seq = ++this.seq;
    mark.version = version;
    this.prune(marks);
  }

  /** Redis numbered an invalidation made here (local number `seq`) with `version`. */
  confirmShared(kind: InvalidationKind, key: string, version: number, seq: number): void {
    const mark = this.marks(kind).map.get(key);
    // Forgotten already: if it was still unshared then, purgeNeeded covers it.
    if (!mark) return;
    if (version > mark.version) mark.version = version;
    if (mark.unshared !== 0 && mark.unshared <= seq) mark.unshared = 0;
  }

  /**
   * Every entry whose render had not seen shared version `version` is stale: another process
   * purged, or Redis forgot records up to it before this process applied them.
   */
  forgetBefore(version: number): void {
    if (version > this.version) this.seqFloor = ++this.seq;
    if (version > this.versionFloor) this.versionFloor = version;
  }

  /** A purge sent from here, numbered `version`, stands for every invalidation made here up to `seq`. */
  confirmPurge(version: number, seq: number): void {
    if (version > this.versionFloor) this.versionFloor = version;
    for (const marks of [this.tags, this.prefixes]) {
      for (const mark of marks.map.values()) {
        if (mark.unshared !== 0 && mark.unshared <= seq) {
          mark.unshared = 0;
          if (version > mark.version) mark.version = version;
        }
      }
    }
    if (this.purgeNeeded <= seq) this.purgeNeeded = 0;
  }

  /** Invalidations made here so far may not reach the others one by one: a purge must. */
  requirePurge(): void {
    this.purgeNeeded = this.seq || ++this.seq;
  }

  /** Redis lost its record (restarted empty, evicted): nothing cached so far can be trusted. */
  loseHistory(): void {
    this.seqFloor = ++this.seq;
    this.purgeNeeded = this.seq;
  }

  // ----

  private local(kind: InvalidationKind, key: string) {
    const seq = ++this.seq;
    const marks = this.marks(kind);
    const mark = marks.touch(key, this.now());
    mark.seq = seq;
    mark.unshared = seq;
    this.prune(marks);
    for (const listener of this.listeners) listener(kind, key, seq);
  }

  private marks(kind: InvalidationKind) {
    return kind === "tag" ? this.tags : this.prefixes;
  }

  private after(mark: Mark | undefined, own: boolean, seen: InvalidationStamp): boolean {
    if (mark === undefined) return false;
    // Not yet numbered: another process's render cannot have seen it.
    return own ? mark.seq > seen.seq : mark.unshared !== 0 || mark.version > seen.version;
  }

  /** Forgets what is too old or too many (after every write, never on a read). */
  private prune(marks: Marks) {
    marks.prune(this.now() - this.horizonMs, this.maxKeys, this.forget);
  }

  /** Whoever had not seen a forgotten mark counts as stale from now on, whatever it depends on. */
  private readonly forget = (old: Mark) => {
    if (old.seq > this.seqFloor) this.seqFloor = old.seq;
    if (old.version > this.versionFloor) this.versionFloor = old.version;
    if (old.unshared > this.purgeNeeded) this.purgeNeeded = old.unshared;
  };
}

/**
 * Stale: its interval has elapsed, or something it depends on was invalidated since its render
 * began. No interval is longer than the record's maxRevalidateSeconds, so a record older than
 * that (and forgotten) can only concern entries that are stale by their interval anyway.
 */
export function isEntryStale(
  entry: { tags: readonly string[]; path: string; generatedAt: number; revalidate: number; seen?: InvalidationStamp },
  now: number,
  invalidations: Invalidations,
): boolean {
  const interval = Math.min(entry.revalidate, invalidations.maxRevalidateSeconds) * 1000;
  return now - entry.generatedAt >= interval || invalidations.isInvalidated(entry);
}
