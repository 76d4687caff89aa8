import type { Registry } from "prom-client";

import { blogPath } from "../../app/lib/blog/paths.ts";
import { newestArticles } from "../../app/lib/cms/articles.server.ts";
import { CMS_REVALIDATE, createCmsClient } from "../../app/lib/cms/client.server.ts";
import { listPublishedPages } from "../../app/lib/cms/content.server.ts";
import type { Env } from "../../app/lib/env.server.ts";
import { localizedPath } from "../../app/lib/locale-path.ts";
import { localeConfigOf } from "../../app/lib/locales.server.ts";
import type { RedisClients } from "../../app/lib/redis.server.ts";
import type { Revalidator } from "../revalidation/revalidator.ts";
import { BudgetedStore } from "./budgeted-store.ts";
import { cachedResponseCodec } from "./cached-response-codec.ts";
import { DataCache } from "./data-cache.ts";
import { Invalidations } from "./invalidations.ts";
import { IsrCache } from "./isr-cache.ts";
import { MemoryStore } from "./memory-store.ts";
import { createMetricsRegistry } from "./metrics.ts";
import { PublishClock } from "./publish-clock.ts";
import { InvalidationBus } from "./redis/invalidation-bus.ts";
import { redisRemoteCache } from "./redis/remote-cache.ts";
import { isNotFound, type CachedResponse } from "./response-cache.ts";
import { warmStart } from "./warm-start.ts";

/**
 * The page cache and everything it is made of, built in one place: the byte-bounded stores
 * (pages, not-found answers, CMS data), the invalidation records, the ISR cache, the data
 * cache, with Redis the shared layer and the invalidation bus, the revalidator that the
 * revalidation route acts on, the counters /metrics reads, and the warm start.
 * server/index.ts builds it once per process and hands it to the routes that read it
 * (server/app.ts, the HIT fast path) and change it (server/operational-routes.ts).
 */

/** Interval of a cached page (seconds, docs/cms-contract.md "Limits"); its CMS fetches may shorten it. */
export const PAGE_REVALIDATE_SECONDS = 300;

/** What the logger needs to offer the cache (pino's logger does). */
export interface CacheLog {
  info(line: string): void;
  error(line: string): void;
}

export interface PageCache {
  /** The rendered pages (HIT, STALE, MISS). */
  pages: IsrCache<CachedResponse>;
  /** CMS answers; undefined in development, which always reads the CMS afresh. */
  dataCache: DataCache | undefined;
  /** What a revalidation request changes: the invalidation records (and, with Redis, every instance's). */
  revalidator: Revalidator;
  /** /metrics: the process's metrics and the cache's counters. */
  metrics: Registry;
  /** Counts a request the cache let through as personal (BYPASS). */
  countBypass(): void;
  /**
   * Requests from `selfUrl`, in the background, up to CACHE_WARM_PAGES paths: the blog's listing and
   * feed in each locale, the most recently updated pages and the newest articles, in turn.
   */
  warm(selfUrl: string): void;
  /** publish_to_visible_seconds: what a revalidation's commit time was, and when it became visible. */
  publishClock: PublishClock;
  /**
   * What CDN-Cache-Control's s-maxage is (CDN_S_MAXAGE; a day with a CDN that is purged, the
   * entry's interval without one: undefined). docs/decisions/0028-publish-to-visible-at-the-edge.md.
   */
  cdnMaxAge: number | undefined;
  /**
   * Re-renders the stale cached pages of these paths (server/cache/response-cache.ts,
   * createPageRefresher): the app hands its refresher in (useRefresher) once it is built.
   */
  refresh(paths: readonly string[]): Promise<number>;
  useRefresher(refresher: (paths: readonly string[]) => Promise<number>): void;
}

/** A page's life at a CDN that is purged on every publish, unless CDN_S_MAXAGE says otherwise. */
export const PURGED_CDN_MAX_AGE_SECONDS = 86_400;

export function createPageCache(config: Env, redis: RedisClients, log: CacheLog): PageCache {
  const production = config.NODE_ENV === "production";
  /** Records are kept for the longest interval (the page's and every CMS fetch's) plus a margin, no longer. */
  const invalidations = new Invalidations({
    maxRevalidateSeconds: Math.max(PAGE_REVALIDATE_SECONDS, ...Object.values(CMS_REVALIDATE)),
  });
  let evictions = 0;
  let bypasses = 0;
  let refresher: ((paths: readonly string[]) => Promise<number>) | undefined;
  const publishClock = new PublishClock();
  /** Pages get 70 % of the budget, not-found answers 5 % of their own (a scan of random paths evicts only those), CMS data 25 %. */
  const pageStore = new BudgetedStore<CachedResponse>(
    new MemoryStore(config.PAGE_CACHE_MAX_BYTES * 0.7, () => evictions++),
    new MemoryStore(config.PAGE_CACHE_MAX_BYTES * 0.05),
    (entry) => isNotFound(entry.value),
  );

  /**
   * With REDIS_URL (in production), instances share rendered pages and locks (remote) and hear
   * each other's invalidations (bus); the in-process store stays in front as the local layer.
   */
  const commands = production ? redis.commands() : undefined;
  const subscriber = commands && redis.subscriber();
  const bus = commands && subscriber ? new InvalidationBus(invalidations, commands, subscriber) : undefined;

  const pages = new IsrCache<CachedResponse>({
    store: pageStore,
    invalidations,
    remote: commands ? redisRemoteCache(commands, cachedResponseCodec) : undefined,
    onError: (key, error) => log.error(`[cache] regenerating ${key} failed; serving the stale page ${String(error)}`),
    // A publish at an address whose cached answer is a 404 is shown to the next visitor (decision 0010).
    expiresWhenInvalidated: isNotFound,
  });

  return {
    pages,
    // Development always reads the CMS afresh (docs/cms-contract.md "Limits": interval 0, data cache skipped).
    dataCache: production
      ? new DataCache(new MemoryStore<unknown>(config.PAGE_CACHE_MAX_BYTES * 0.25), invalidations)
      : undefined,
    revalidator: {
      // 'max': stale-while-revalidate (entries go stale, served once more); { expire: 0 }: entries
      // are expired, never served again (takedowns; docs/decisions/0010-takedowns-expire.md).
      revalidatePath: (path, profile = "max") => invalidations.revalidatePath(path, { expire: profile !== "max" }),
      revalidateTag: (tag, profile) => invalidations.revalidateTag(tag, { expire: profile !== "max" }),
      shared: () => bus?.sent() ?? Promise.resolve(),
    },
    metrics: createMetricsRegistry({
      pageCache: pages,
      pageStore,
      bypasses: () => bypasses,
      evictions: () => evictions,
      publishToVisible: publishClock.histogram,
    }),
    publishClock,
    cdnMaxAge: config.CDN_S_MAXAGE ?? (config.CDN_PROVIDER === "none" ? undefined : PURGED_CDN_MAX_AGE_SECONDS),
    refresh: (paths) => refresher?.(paths) ?? Promise.resolve(0),
    useRefresher(next) {
      refresher = next;
    },
    countBypass: () => void bypasses++,
    warm(selfUrl) {
      if (!production || config.CACHE_WARM_PAGES === 0) return;
      const cms = createCmsClient({
        baseUrl: config.CMS_URL,
        apiToken: config.CMS_REST_READONLY_API_KEY,
        timeoutMs: config.CMS_FETCH_TIMEOUT_MS,
      });
      const locales = localeConfigOf(config);
      /** A page's or an article's site path; none ("") for a locale the site does not serve. */
      const pathOf = (fullPath: string, locale: string) =>
        locales.locales.includes(locale) ? localizedPath(fullPath, locale, locales) : "";
      void warmStart({
        // In turn, one of each: the blog's listing and feed in each locale, the most recently
        // updated CMS pages, the newest articles (docs/configuration.md, CACHE_WARM_PAGES).
        sources: [
          {
            name: "the blog's listings",
            paths: async function* () {
              for (const locale of locales.locales) {
                yield pathOf(blogPath(), locale);
                yield pathOf(blogPath({ feed: true }), locale);
              }
            },
          },
          {
            name: "the CMS's pages",
            paths: async function* () {
              for await (const page of listPublishedPages(cms)) yield pathOf(page.fullPath, page.locale);
            },
          },
          {
            name: "the newest articles",
            paths: async function* () {
              for await (const article of newestArticles(cms))
                yield pathOf(blogPath({ slug: article.slug }), article.locale);
            },
          },
        ],
        request: async (path) => {
          const response = await fetch(`${selfUrl}${path}`, { redirect: "manual" });
          await response.arrayBuffer();
        },
        max: config.CACHE_WARM_PAGES,
        concurrency: 4,
        log: (line) => log.info(line),
      });
    },
  };
}
