/**
 * The public configuration of the site-cache plugin: what a Strapi 5 project's config/plugins.js
 * passes as `"site-cache": { enabled: true, config: { ... } }`, and the declaration each content
 * type's schema carries. server/config/index.js holds the defaults and checks the values at start;
 * the README says the same for people.
 */

/** The page hierarchy (opt-in): the entries of one content type form a tree. */
export interface HierarchyConfig {
  /** The content type whose entries are pages, e.g. "api::page.page": a localized collection type. */
  contentType: string;
  /** Its string attribute holding the last part of a page's address, e.g. "slug". */
  slugField: string;
  /** Its manyToOne relation to itself, e.g. "parent" (its other side, if any, is the children). */
  parentField: string;
  /** Its string attribute the plugin derives from the parent's and the slug, e.g. "fullPath". */
  pathField: string;
  /**
   * The content type moves leave redirects in, e.g. "api::redirect.redirect" (attributes source and
   * destination: string; permanent: boolean); null or absent: a move leaves no redirect.
   */
  redirectType?: string | null;
}

export interface SiteCacheConfig {
  /** The site as the CMS reaches it (revalidations, CDN purges), without a trailing slash. Default http://localhost:3000. */
  clientUrl?: string;
  /** Sent as `Authorization: Bearer <secret>` to the site's POST /api/cms-revalidate; empty: revalidation off. */
  revalidateSecret?: string;
  /** The secret of the site's POST /api/cdn-purge; empty: no CDN purge. */
  cdnPurgeSecret?: string;
  /** Each revalidation request: its timeout, its retries and their backoff (ms). Defaults 5000, 3, 500. */
  timeoutMs?: number;
  retries?: number;
  backoffMs?: number;
  /** How often recorded failures are retried (ms; 0: never). Default 30000. */
  retryIntervalMs?: number;
  /** How long an unpublish or delete waits for the site's answer (ms). Default 3000. */
  takedownWaitMs?: number;
  /** Each CDN purge request's timeout (ms). Default 10000. */
  purgeTimeoutMs?: number;
  /** How long a publish waits for the site's answer and the CDN purge (ms; 0: not at all). Default 3000. */
  publishWaitMs?: number;
  /** Publishes within batchWindowMs of each other go as one request, at most batchMaxWaitMs after the first. Defaults 100, 1000. */
  batchWindowMs?: number;
  batchMaxWaitMs?: number;
  /** Retries of a CDN purge the site did not take. Default 2. */
  purgeRetries?: number;
  /** When scheduled publishes run: a cron rule with seconds; "": no scheduler on this instance. Default "0 * * * * *". */
  scheduleCron?: string;
  /** The page hierarchy; null (the default): none. */
  hierarchy?: HierarchyConfig | null;
}

/**
 * A content type's declaration: `"pluginOptions": { "site-cache": { ... } }` in its schema.json.
 * Only declared types are revalidated (and get the admin's buttons).
 */
export interface SiteCacheDeclaration {
  /** Where the site shows an entry, `{attribute}` filled in from it: "/blog/{slug}". Collection types only. */
  path?: string;
  /** The order the site lists the type in ("attribute:asc|desc"), for its previous / next links. */
  order?: string[];
  /** false: no Preview button although the type has a path. */
  preview?: boolean;
  /** true: entries may be scheduled (draftAndPublish and datetime attributes publishAt, unpublishAt). */
  schedule?: boolean;
}

/** What Strapi loads from `@cms-site/strapi-plugin-site-cache/strapi-server`. */
declare const server: {
  register: (context: { strapi: unknown }) => Promise<void>;
  bootstrap: (context: { strapi: unknown }) => Promise<void>;
  destroy: (context: { strapi: unknown }) => void;
  config: { default: Required<SiteCacheConfig>; validator: (config: SiteCacheConfig) => void };
  [key: string]: unknown;
};
export default server;
