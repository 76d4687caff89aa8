import type { IncomingHttpHeaders } from "node:http";

import { LRUCache } from "lru-cache";
import { Histogram } from "prom-client";

/**
 * publish_to_visible_seconds (docs/decisions/0028-publish-to-visible-at-the-edge.md): from the
 * CMS's commit (`committedAt`, sent in the revalidation payload) to the first fresh answer of a
 * revalidated path, labelled `via="origin"` for a visitor who asked the site and `via="edge"` when
 * the request came through the CDN (the CDN's fetch is what makes the page visible there).
 *
 * The instance that takes the revalidation remembers path → commit time (bounded: 10,000 paths,
 * forgotten after 10 minutes). The first render of such a path after it takes the commit time
 * into the cached value (`committedAt`), which travels to the other instances with the entry
 * (Redis); each instance observes the first fresh answer of that value once per label. An entry
 * rendered later (its next interval) carries none.
 */

export type Via = "origin" | "edge";

/** The CMS's clock and the site's may differ: a commit "in the future" is taken as now, one older than this is ignored. */
const MAX_AGE_MS = 10 * 60_000;

/** Headers a CDN adds to the requests it sends to its origin. */
const EDGE_HEADERS = ["x-varnish", "cdn-loop", "cf-ray", "fastly-ff"] as const;

export function viaOf(headers: IncomingHttpHeaders): Via {
  return EDGE_HEADERS.some((name) => headers[name] !== undefined) ? "edge" : "origin";
}

export interface PublishClockOptions {
  now?: () => number;
  maxPaths?: number;
}

export class PublishClock {
  readonly histogram = new Histogram({
    name: "publish_to_visible_seconds",
    help: "From the CMS's commit of a publish to the first fresh answer of a revalidated path (via: origin, or edge: through the CDN)",
    labelNames: ["via"] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 1.5, 2, 3, 5, 10, 30, 60, 300],
    registers: [],
  });
  private readonly now: () => number;
  private readonly pending: LRUCache<string, number>;
  /** The values already observed, per label (weak: gone with the entry). */
  private readonly observed = new WeakMap<object, Set<Via>>();

  constructor(options: PublishClockOptions = {}) {
    this.now = options.now ?? Date.now;
    this.pending = new LRUCache<string, number>({ max: options.maxPaths ?? 10_000, ttl: MAX_AGE_MS });
  }

  /** How many paths wait for their first render (a test shows the bound). */
  get size(): number {
    return this.pending.size;
  }

  /** A revalidation of `paths` for a write the CMS committed at `committedAt` (ms since the epoch). */
  revalidated(paths: readonly string[], committedAt: number | undefined): void {
    if (committedAt === undefined || this.now() - committedAt > MAX_AGE_MS) return;
    for (const path of paths) this.pending.set(path, Math.min(committedAt, this.now()));
  }

  /** For a render of `path` that starts now: the commit time it makes visible (once), or undefined. */
  takeFor(path: string): number | undefined {
    const committedAt = this.pending.get(path);
    if (committedAt !== undefined) this.pending.delete(path);
    return committedAt;
  }

  /** A fresh answer of `value` (a cached page carrying `committedAt`) is being sent. */
  served(value: { committedAt?: number }, via: Via): void {
    if (value.committedAt === undefined) return;
    let seen = this.observed.get(value);
    if (seen?.has(via)) return;
    if (!seen) this.observed.set(value, (seen = new Set()));
    seen.add(via);
    this.histogram.observe({ via }, Math.max(0, this.now() - value.committedAt) / 1000);
  }
}
