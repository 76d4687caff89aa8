import type * as z from "zod";

import { createCmsHttp, parseCmsAnswer } from "./http.server.ts";

/** Revalidate intervals (seconds): docs/cms-contract.md, "Limits". */
export const CMS_REVALIDATE = {
  /** Default of a fetch that does not set its own interval. */
  base: 60,
  /** Page data; also revalidated by path when the page is published. */
  pageData: 120,
  /** Navbar and footer, tagged `cms:<uid>`. */
  navigation: 600,
} as const;

/** The cache tag of a content type: `cms:api::navbar.navbar`. */
export const cmsTag = (uid: string) => `cms:${uid}`;

/** The cache tag of one document, all its locales: `cms:api::page.page:<documentId>`. */
export const cmsDocumentTag = (uid: string, documentId: string) => `${cmsTag(uid)}:${documentId}`;

export interface CmsFetchOptions {
  /** Query parameters, encoded the way Strapi reads them (`filters[fullPath][$eq]=…`). */
  query?: Record<string, unknown>;
  /** Seconds this response may be reused; defaults to CMS_REVALIDATE.base. */
  revalidate?: number;
  /** Cache tags: revalidating one of them marks this fetch (and every page that made it) stale. */
  tags?: string[];
  /**
   * Send no user Authorization header and skip the session lookup, so the render that
   * makes this call can stay in the shared cache. Public content calls set it.
   */
  omitUserAuthorization?: boolean;
  /** Make the call as this CMS user (a per-user call: never cached, marks the render dynamic). */
  userJWT?: string;
  /** Browser-side only: go through the front end's CMS proxy, which attaches the session's JWT. */
  useProxy?: boolean;
  /**
   * Fetch afresh even when there is a data cache, yet report `revalidate` and `tags` for the
   * render that makes the call: for answers only one cached response uses (the sitemap's page
   * listing), which would crowd page data out of the data cache for nothing.
   */
  skipDataCache?: boolean;
  /**
   * The site path this data is shown at (`/en/careers`): revalidating that path, or a
   * wildcard above it, refreshes the cached response.
   */
  pagePath?: string;
  /**
   * Read the draft version (`status=draft`) with this API token, which may read drafts (preview,
   * docs/cms-contract.md "Preview"). Never from or into the data cache, and reported as not
   * shareable (`perUser`): the render that makes the call is never cached.
   */
  draft?: { apiToken: string; /** Names the token in the error when the CMS refuses it. */ variable: string };
  signal?: AbortSignal;
}

/** Where CMS answers are kept between requests (server/cache/data-cache.ts). */
export interface CmsDataCache {
  load<T>(
    key: string,
    meta: { path: string; tags: string[]; revalidate: number },
    fetchFresh: () => Promise<T>,
  ): Promise<T>;
}

/** What one CMS call asked of the cache; collected per request for the ISR cache. */
export interface CmsCallRecord {
  path: string;
  revalidate: number;
  tags: string[];
  /** True when the call carried a user's JWT: the response must not be shared. */
  perUser: boolean;
}

export interface CmsClientConfig {
  baseUrl: string;
  apiToken: string;
  timeoutMs: number;
  /** Called once per call, before the request is sent. */
  onCall?: (record: CmsCallRecord) => void;
  /** Shared cache for public (non-user) answers; none in development (always fresh). */
  dataCache?: CmsDataCache;
  /**
   * The signed-in visitor's CMS JWT, looked up (once per request) for calls that neither set
   * omitUserAuthorization nor bring their own userJWT. Looking it up makes the render personal.
   */
  sessionJWT?: () => Promise<string | undefined>;
  fetch?: typeof fetch;
}

export interface CmsClient {
  get<Schema extends z.ZodType>(path: string, schema: Schema, options?: CmsFetchOptions): Promise<z.infer<Schema>>;
}

/**
 * The server's CMS client: read-only API token for public content, a user's JWT for
 * per-user calls; the data cache and the call log around http.server.ts, which turns every
 * failure into a CmsError with the status the page should show.
 */
export function createCmsClient(config: CmsClientConfig): CmsClient {
  const http = createCmsHttp(config);
  const apiToken = { apiToken: config.apiToken };

  return {
    async get(path, schema, options = {}) {
      if (!path.startsWith("/api/")) throw new Error(`CMS paths start with /api/, got ${path}`);
      if (options.useProxy) {
        throw new Error("useProxy is for browser-side calls; on the server the client calls the CMS directly");
      }
      const userJWT = options.omitUserAuthorization
        ? undefined
        : (options.userJWT ?? (config.sessionJWT ? await config.sessionJWT() : undefined));
      const perUser = userJWT !== undefined;
      const revalidate = options.revalidate ?? CMS_REVALIDATE.base;
      const tags = options.tags ?? [];
      config.onCall?.({ path, revalidate, tags, perUser: perUser || options.draft !== undefined });

      const { query, signal } = options;
      if (options.draft) {
        const { apiToken: secret, variable } = options.draft;
        const draftQuery = { ...query, status: "draft" };
        return parseCmsAnswer(
          schema,
          await http.json({ path, query: draftQuery, credential: { secret, variable }, signal }),
          path,
        );
      }
      const body =
        perUser || !config.dataCache || revalidate <= 0 || options.skipDataCache
          ? await http.json({ path, query, credential: perUser ? { userJWT } : apiToken, signal })
          : // A shared fetch: one visitor going away must not abort it for the others.
            await config.dataCache.load(http.url(path, query), { path: options.pagePath ?? "", tags, revalidate }, () =>
              http.json({ path, query, credential: apiToken }),
            );
      return parseCmsAnswer(schema, body, path);
    },
  };
}
