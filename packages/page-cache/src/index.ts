/**
 * @cms-site/page-cache: the page cache for a React Router (framework mode) site on Node.js whose
 * content comes from a CMS. The one entry point: everything a site uses is exported here. The
 * site's own policy (which paths are cached, who is signed in, locale variants of a path,
 * warm-start sources, which tags a CDN is told, the logger) is passed in, never imported.
 */

// The cache and its parts.
export {
  createPageCache,
  PURGED_CDN_MAX_AGE_SECONDS,
  type PageCache,
  type PageCacheLog,
  type PageCacheOptions,
} from "./page-cache.ts";
export { IsrCache, type CacheStatus, type IsrCacheOptions, type Rendered, type Served } from "./cache/isr-cache.ts";
export { MemoryStore } from "./cache/memory-store.ts";
export { BudgetedStore } from "./cache/budgeted-store.ts";
export type { CacheEntry, CacheStore } from "./cache/types.ts";
export { Invalidations, pathTag, type InvalidationKind, type InvalidationsOptions } from "./cache/invalidations.ts";
export { PublishClock } from "./cache/publish-clock.ts";
export { createMetricsRegistry } from "./cache/metrics.ts";
export { warmStart, type WarmStartOptions, type WarmStartResult, type WarmStartSource } from "./cache/warm-start.ts";

// The response cache: Express middleware, the node:http fast path, the refresher.
export {
  CDN_TAG_HEADER_BYTES,
  cdnTags,
  createPageRefresher,
  createResponseCacheMiddleware,
  isNotFound,
  pagePathOf,
  serveFreshHit,
  type CachedResponse,
  type PageRender,
  type RenderVariant,
  type ResponseCacheOptions,
} from "./cache/response-cache.ts";
export {
  pageKeyOf,
  SESSION_VARIANT_SUFFIX,
  type PageKeyOutcome,
  type VisitorHeaders,
  type VisitorPolicy,
} from "./cache/cache-key.ts";
export {
  keyInputsOf,
  type CacheQueryHandle,
  type CanonicalQueryValue,
  type KeyInputsOf,
} from "./cache/declared-query.ts";

// The data cache and what loaders record.
export { DataCache, type DataCacheMeta, type Recorded } from "./cache/data-cache.ts";
export { cachedRead, RenderReads, type CachedReadOptions, type RecordedRead } from "./cache/render-reads.ts";
export { renderReadsContext } from "./cache/render-context.ts";

// Redis: the shared layer and the invalidation bus.
export { InvalidationBus, type InvalidationBusOptions } from "./cache/redis/invalidation-bus.ts";
export { redisRemoteCache, type RemoteCache } from "./cache/redis/remote-cache.ts";

// Express <-> Fetch, as the middleware and the handlers use them.
export { sendWebResponse, toWebRequest } from "./http/express-fetch.ts";

// What the handlers guard their posts with, for a site's own endpoints too: a secret compared in
// constant time, a body read up to a limit.
export { bearerMatches, secretMatches } from "./http/bearer-secret.ts";
export { BodyTooLargeError, readBodyWithLimit } from "./http/read-body.ts";

// Revalidation and CDN purge handlers (Fetch Request in, Response out).
export {
  handleRevalidation,
  REVALIDATION_BODY_LIMIT,
  type RevalidationDeps,
} from "./revalidation/handle-revalidation.ts";
export { revalidationPayloadSchema, type RevalidationPayload } from "./revalidation/payload.ts";
export type { RevalidationProfile, Revalidator } from "./revalidation/revalidator.ts";
export { cdnProviderOf, handleCdnPurge, purgePayloadSchema, type CdnSettings } from "./cdn/purge.ts";
export {
  CdnError,
  cloudflareProvider,
  fastlyProvider,
  httpPurgeProvider,
  type CdnProvider,
  type ProviderOptions,
  type PurgeRequest,
  type PurgeResult,
} from "./cdn/providers.ts";
export { createPurgeGate, type PurgeGate, type PurgeGateOptions } from "./cdn/purge-gate.ts";
