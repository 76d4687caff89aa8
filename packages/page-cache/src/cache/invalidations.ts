import { PATH_TAG_PREFIX, pathTag } from "@cms-site/cache-tags";
import { randomUUID } from "node:crypto";

/**
 * The invalidation record: which tags, paths and path prefixes were invalidated, in an order
 * that does not depend on any clock. Every invalidation applied here gets the next number of
 * a local counter (`seq`); one shared through Redis also carries the version Redis gave it
 * (redis/invalidation-bus.ts). A render takes a stamp when it starts: the local
 * counter and the shared version up to which it has seen every invalidation. An entry is stale
 * when something it depends on was invalidated after its stamp: compared on the local counter
 * for entries rendered by this process, on the shared version for entries rendered by another
 * one. Clocks are only used for intervals and for forgetting old records
 * (docs/decisions/0007-invalidation-clock-and-pruning.md).
 *
 * Two profiles, as Next.js's revalidateTag(tag, "max") and revalidateTag(tag, { expire: 0 }):
 * stale-while-revalidate (the default: an entry hit goes stale, is served once more and
 * regenerated in the background) and expire (takedowns: an entry hit is expired, treated as
 * missing and rendered before anyone is answered). Every mark keeps the latest invalidation of
 * its key and, apart, the latest expiring one, so a later stale-while-revalidate invalidation
 * of the same key never softens an earlier expiry
 * (docs/decisions/0010-takedowns-expire.md).
 *
 * Invalidating costs one map write, whatever the number of cached entries; checking an entry
 * costs one lookup per tag plus one per segment of its path (for wildcards). Records older
 * than the longest interval plus a margin are forgotten, so memory does not grow with the
 * number of invalidations ever made; forgetting one raises a floor under which every entry
 * counts as stale, so forgetting can never make a stale entry look fresh.
 */

/** The implicit tag every entry for this URL path carries (`path:<path>`, spelt in @cms-site/cache-tags). */
export { PATH_TAG_PREFIX, pathTag };

export interface InvalidationClock {
  (): number;
}

export type InvalidationKind = "tag" | "prefix";

/** Whether an entry was hit by invalidations since its render began, and how hard. */
export type Invalidation = "none" | "stale" | "expired";

/** What an entry is now: fresh (HIT), stale (served, regenerated behind), expired (treated as missing). */
export type EntryState = "fresh" | "stale" | "expired";

export interface InvalidateOptions {
  /** Expire rather than mark stale: nobody is served what was rendered before (unpublish, delete). */
  expire?: boolean;
}

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
export type InvalidationListener = (kind: InvalidationKind, key: string, seq: number, expire: boolean) => void;

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
  /** The same three for the latest expiring invalidation of this key (0: none). */
  xseq: number;
  xversion: number;
  xunshared: number;
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
      mark = { seq: 0, version: 0, unshared: 0, xseq: 0, xversion: 0, xunshared: 0, at, queuedAt: at };
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
  /** The same two floors for expiring invalidations: entries below them are expired, not stale. */
  private seqExpireFloor = 0;
  private versionExpireFloor = 0;
  /** Local counter of the latest expiring invalidation applied here (or floor raised): work begun before it is not joined. */
  private lastExpireSeq = 0;
  /**
   * Non-zero: invalidations made here up to this local number may never reach the others one
   * by one (forgotten before Redis numbered them, or Redis lost its record). Until a purge
   * covering them is shared, other processes' entries are not trusted here.
   */
  private purgeNeeded = 0;
  /** Non-zero: that purge must expire (an expiring invalidation is among those it stands for). */
  private expirePurgeNeeded = 0;

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

  revalidateTag(tag: string, options: InvalidateOptions = {}): void {
    this.local("tag", tag, options.expire === true);
  }

  /** A path (`/en/careers`) or a wildcard (`/jobs/*`, `/*`) matching every path below it. */
  revalidatePath(path: string, options: InvalidateOptions = {}): void {
    const expire = options.expire === true;
    if (path.endsWith("/*")) this.local("prefix", path.slice(0, -1), expire);
    else this.local("tag", pathTag(path), expire);
  }

  /** What a render starting now knows; store it on the entry. */
  stamp(): InvalidationStamp {
    return { origin: this.origin, seq: this.seq, version: this.version };
  }

  /** Whether anything the entry depends on was invalidated after its render began. */
  isInvalidated(entry: { tags: readonly string[]; path: string; seen?: InvalidationStamp }): boolean {
    return this.invalidationOf(entry) !== "none";
  }

  /**
   * How hard the entry was hit since its render began: "expired" if any invalidation of a tag,
   * path or prefix it depends on was an expiring one (or one forgotten since, under the expire
   * floors), else "stale" if any was, else "none".
   */
  invalidationOf(entry: { tags: readonly string[]; path: string; seen?: InvalidationStamp }): Invalidation {
    // Unstamped (written by an older release): nothing says what it knew; it has seen nothing.
    const seen = entry.seen ?? NOTHING_SEEN;
    const own = seen.origin === this.origin;
    if (own ? seen.seq < this.seqExpireFloor : seen.version < this.versionExpireFloor || this.expirePurgeNeeded !== 0) {
      return "expired";
    }
    let found: Invalidation = entry.seen === undefined ? "stale" : "none";
    if (own ? seen.seq < this.seqFloor : seen.version < this.versionFloor || this.purgeNeeded !== 0) found = "stale";
    const tags = this.tags.map;
    for (const tag of entry.tags) {
      const hit = this.hit(tags.get(tag), own, seen);
      if (hit === "expired") return hit;
      if (hit === "stale") found = hit;
    }
    const onPath = this.hit(tags.get(pathTag(entry.path)), own, seen);
    if (onPath === "expired") return onPath;
    if (onPath === "stale") found = onPath;
    const prefixes = this.prefixes.map;
    if (prefixes.size === 0) return found;
    // Every prefix of the path that ends at a segment boundary: `/`, `/jobs/`, `/jobs/a/`…
    for (let slash = entry.path.indexOf("/"); slash !== -1; slash = entry.path.indexOf("/", slash + 1)) {
      const hit = this.hit(prefixes.get(entry.path.slice(0, slash + 1)), own, seen);
      if (hit === "expired") return hit;
      if (hit === "stale") found = hit;
    }
    return found;
  }

  /**
   * Whether an expiring invalidation was applied here since `seen` was taken (by this
   * process): work begun before it (a render, a fetch) must not be handed to anyone who asks
   * after it. Coarse (any key), and cheap: expiring invalidations are rare.
   */
  expiredSince(seen: InvalidationStamp): boolean {
    return seen.origin !== this.origin || this.lastExpireSeq > seen.seq;
  }

  // ---- What the invalidation bus feeds in (redis/invalidation-bus.ts) ----

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

  /** Whether the purge that must be shared has to expire (an expiring invalidation is among those it stands for). */
  get purgeExpires(): boolean {
    return this.expirePurgeNeeded !== 0;
  }

  /** An invalidation another process made, numbered `version` by Redis; `expire` if it was an expiring one. */
  applyShared(kind: InvalidationKind, key: string, version: number, expire = false): void {
    // At or below the watermark: applied already (and perhaps forgotten since, under the floors).
    if (version <= this.version) return;
    const marks = this.marks(kind);
    const known = marks.map.get(key);
    const newer = (known?.version ?? 0) < version;
    const newerExpiry = expire && (known?.xversion ?? 0) < version;
    if (!newer && !newerExpiry) return;
    const mark = marks.touch(key, this.now());
    const seq = ++this.seq;
    if (newer) {
      mark.seq = seq;
      mark.version = version;
    }
    if (newerExpiry) {
      mark.xseq = seq;
      mark.xversion = version;
      this.lastExpireSeq = seq;
    }
    this.prune(marks);
  }

  /** Redis numbered an invalidation made here (local number `seq`) with `version`. */
  confirmShared(kind: InvalidationKind, key: string, version: number, seq: number, expire = false): void {
    const mark = this.marks(kind).map.get(key);
    // Forgotten already: if it was still unshared then, purgeNeeded covers it.
    if (!mark) return;
    if (version > mark.version) mark.version = version;
    if (mark.unshared !== 0 && mark.unshared <= seq) mark.unshared = 0;
    if (!expire) return;
    if (version > mark.xversion) mark.xversion = version;
    if (mark.xunshared !== 0 && mark.xunshared <= seq) mark.xunshared = 0;
  }

  /**
   * Every entry whose render had not seen shared version `version` is stale (`expire`:
   * expired): another process purged, or Redis forgot records up to it before this process
   * applied them.
   */
  forgetBefore(version: number, expire = false): void {
    if (version > this.version) {
      this.seqFloor = ++this.seq;
      if (expire) this.seqExpireFloor = this.lastExpireSeq = this.seq;
    }
    if (version > this.versionFloor) this.versionFloor = version;
    if (expire && version > this.versionExpireFloor) this.versionExpireFloor = version;
  }

  /** A purge sent from here, numbered `version`, stands for every invalidation made here up to `seq`. */
  confirmPurge(version: number, seq: number, expire = false): void {
    if (version > this.versionFloor) this.versionFloor = version;
    if (expire && version > this.versionExpireFloor) this.versionExpireFloor = version;
    for (const marks of [this.tags, this.prefixes]) {
      for (const mark of marks.map.values()) {
        if (mark.unshared !== 0 && mark.unshared <= seq) {
          mark.unshared = 0;
          if (version > mark.version) mark.version = version;
        }
        if (expire && mark.xunshared !== 0 && mark.xunshared <= seq) {
          mark.xunshared = 0;
          if (version > mark.xversion) mark.xversion = version;
        }
      }
    }
    if (this.purgeNeeded <= seq) this.purgeNeeded = 0;
    if (expire && this.expirePurgeNeeded <= seq) this.expirePurgeNeeded = 0;
  }

  /** Invalidations made here so far may not reach the others one by one: a purge must (an expiring one if `expire`). */
  requirePurge(expire = false): void {
    this.purgeNeeded = this.seq || ++this.seq;
    if (expire) this.expirePurgeNeeded = this.purgeNeeded;
  }

  /** Redis lost its record (restarted empty, evicted): nothing cached so far can be trusted. */
  loseHistory(): void {
    this.seqFloor = ++this.seq;
    this.purgeNeeded = this.seq;
  }

  // ----

  private local(kind: InvalidationKind, key: string, expire: boolean) {
    const seq = ++this.seq;
    const marks = this.marks(kind);
    const mark = marks.touch(key, this.now());
    mark.seq = seq;
    mark.unshared = seq;
    if (expire) {
      mark.xseq = seq;
      mark.xunshared = seq;
      this.lastExpireSeq = seq;
    }
    this.prune(marks);
    for (const listener of this.listeners) listener(kind, key, seq, expire);
  }

  private marks(kind: InvalidationKind) {
    return kind === "tag" ? this.tags : this.prefixes;
  }

  private hit(mark: Mark | undefined, own: boolean, seen: InvalidationStamp): Invalidation {
    if (mark === undefined) return "none";
    // Not yet numbered: another process's render cannot have seen it.
    if (own ? mark.xseq > seen.seq : mark.xunshared !== 0 || mark.xversion > seen.version) return "expired";
    if (own ? mark.seq > seen.seq : mark.unshared !== 0 || mark.version > seen.version) return "stale";
    return "none";
  }

  /** Forgets what is too old or too many (after every write, never on a read). */
  private prune(marks: Marks) {
    marks.prune(this.now() - this.horizonMs, this.maxKeys, this.forget);
  }

  /**
   * Whoever had not seen a forgotten mark counts as stale from now on, whatever it depends on;
   * as expired if the mark held an expiring invalidation it had not seen.
   */
  private readonly forget = (old: Mark) => {
    if (old.seq > this.seqFloor) this.seqFloor = old.seq;
    if (old.version > this.versionFloor) this.versionFloor = old.version;
    if (old.unshared > this.purgeNeeded) this.purgeNeeded = old.unshared;
    if (old.xseq > this.seqExpireFloor) this.seqExpireFloor = old.xseq;
    if (old.xversion > this.versionExpireFloor) this.versionExpireFloor = old.xversion;
    if (old.xunshared > this.expirePurgeNeeded) this.expirePurgeNeeded = old.xunshared;
  };
}

/** The stamp of an entry that says nothing (unstamped): it has seen no invalidation at all. */
const NOTHING_SEEN: InvalidationStamp = { origin: "", seq: 0, version: 0 };

/**
 * Expired: an expiring invalidation hit it since its render began (never served again).
 * Stale: its interval has elapsed, or something it depends on was invalidated since its render
 * began. Fresh: neither.
 */
export function entryState(
  entry: { tags: readonly string[]; path: string; generatedAt: number; revalidate: number; seen?: InvalidationStamp },
  now: number,
  invalidations: Invalidations,
): EntryState {
  const hit = invalidations.invalidationOf(entry);
  if (hit === "expired") return "expired";
  const interval = Math.min(entry.revalidate, invalidations.maxRevalidateSeconds) * 1000;
  return hit === "stale" || now - entry.generatedAt >= interval ? "stale" : "fresh";
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
  return entryState(entry, now, invalidations) !== "fresh";
}
