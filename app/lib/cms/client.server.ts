import { documentTag, fieldTag, listTag, neighboursTag, typeTag } from "@cms-site/cache-tags";
import type * as z from "zod";

import { createCmsHttp, parseCmsAnswer } from "./http.server.ts";
import { queryFields } from "./query-fields.ts";

/** Revalidate intervals (seconds): docs/cms-contract.md, "Limits". */
export const CMS_REVALIDATE = {
  /** Default of a fetch that does not set its own interval. */
  base: 60,
  /** Page data; also revalidated by path when the page is published. */
  pageData: 120,
  /** Navbar and footer, tagged `cms:<uid>`. */
  navigation: 600,
} as const;

// The cache tags are spelt once, in @cms-site/cache-tags, which the CMS's plugin imports too
// (docs/architecture.md, "What a render depends on"; docs/cms-contract.md, "Revalidation").

/** What of a call decides its tags: its type, its query, and the two options that change the rules. */
export interface RecordedCall {
  type: string;
  query?: Record<string, unknown>;
  pagePath?: string;
  dependsOn?: { neighboursOf: string };
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** `{ documentId: { $eq: "<id>" } }` exactly: the id, else undefined. */
function documentIdEq(filter: unknown): string | undefined {
  if (!isPlainObject(filter)) return undefined;
  const keys = Object.keys(filter);
  if (keys.length !== 1 || keys[0] !== "documentId") return undefined;
  const condition = filter.documentId;
  if (!isPlainObject(condition) || Object.keys(condition).length !== 1) return undefined;
  return typeof condition.$eq === "string" && condition.$eq ? condition.$eq : undefined;
}

/** `{ <attribute>: { documentId: { $eq: "<id>" } } }` exactly (one relation): the pair, else undefined. */
function relationEq(filters: unknown): { attribute: string; documentId: string } | undefined {
  if (!isPlainObject(filters)) return undefined;
  const keys = Object.keys(filters);
  const attribute = keys[0];
  if (keys.length !== 1 || !attribute || attribute.startsWith("$") || attribute === "documentId") return undefined;
  const documentId = documentIdEq(filters[attribute]);
  return documentId ? { attribute, documentId } : undefined;
}

/**
 * The tags a call records, from what it asked and what the CMS answered (the contract's rules
 * S1–S5, docs/architecture.md "What a render depends on"):
 * - S1 the type's tag, always;
 * - S2 the tag of every document at the top level of the answer's `data` (populated relations are
 *   not: the CMS revalidates the documents that show a changed one);
 * - S3 filters exactly `{ documentId: { $eq: X } }`: X's tag, even when the answer is empty;
 * - S4 a list (`data` an array) not looked up at a site path (`pagePath`), not S3 and not
 *   `dependsOn`: the list's tag in the query's locale (`*` for `locale=*` or none),
 *   filtered by the relation when the filters are exactly one `{ a: { documentId: { $eq } } }`;
 *   with any other filter (a field, dates, `$or`, several keys) the whole list, which the CMS sends
 *   when a document joins or leaves it, and a field tag per attribute the filters name (C7: sent
 *   when an edit changes a published document's value, which may move it into or out of the
 *   listing); a field tag per attribute the query sorts by too (an edit may move a document onto
 *   or off a page of it);
 * - S5 `dependsOn: { neighboursOf: D }` (D's previous/next): S1, S2 and D's neighbours tag in the
 *   query's locale, which the CMS sends when a document joins, leaves or moves next to D.
 */
export function recordedTags(call: RecordedCall, answer: unknown): string[] {
  const tags = new Set([typeTag(call.type)]);
  const filters = call.query?.filters;
  const byDocument = documentIdEq(filters);
  if (byDocument) tags.add(documentTag(call.type, byDocument));
  const data = isPlainObject(answer) ? answer.data : undefined;
  for (const item of Array.isArray(data) ? data : [data]) {
    if (isPlainObject(item) && typeof item.documentId === "string" && item.documentId) {
      tags.add(documentTag(call.type, item.documentId));
    }
  }
  const locale = typeof call.query?.locale === "string" && call.query.locale ? call.query.locale : "*";
  if (call.dependsOn) tags.add(neighboursTag(call.type, locale, call.dependsOn.neighboursOf));
  else if (Array.isArray(data) && call.pagePath === undefined && !byDocument) {
    const relation = relationEq(filters);
    tags.add(listTag(call.type, locale, relation));
    for (const attribute of queryFields(call.query, { filtersCovered: relation !== undefined }))
      tags.add(fieldTag(call.type, locale, attribute));
  }
  return [...tags];
}

export interface CmsFetchOptions {
  /**
   * The content type's uid (`api::article.article`): the call records its tags from it and from
   * the answer (recordedTags); revalidating one of them marks this fetch, and every page that made
   * it, stale.
   */
  type: string;
  /** Query parameters, encoded the way Strapi reads them (`filters[fullPath][$eq]=…`). */
  query?: Record<string, unknown>;
  /** Seconds this response may be reused; defaults to CMS_REVALIDATE.base. */
  revalidate?: number;
  /**
   * `{ neighboursOf: D }`: the previous/next of document D (rule S5): the render depends on the
   * documents the answer holds and on D's neighbours tag, not on the list they were picked from:
   * the CMS sends that tag when a document joins, leaves or moves next to D, also at the list's
   * ends, where the answer is empty (docs/decisions/0027-dependencies-recorded-per-render.md).
   */
  dependsOn?: { neighboursOf: string };
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

/** An answer with the tags recorded from it. */
export interface RecordedAnswer<T> {
  value: T;
  tags: string[];
}

/**
 * Where CMS answers are kept between requests (@cms-site/page-cache, data-cache.ts), each with the tags
 * recorded from it: a hit reports them as the fetch did. `meta.tags`: the tags known before the
 * answer (type, list, document asked for), for deciding whether to join a fetch in flight.
 */
export interface CmsDataCache {
  load<T>(
    key: string,
    meta: { path: string; tags: string[]; revalidate: number },
    fetchFresh: () => Promise<RecordedAnswer<T>>,
  ): Promise<RecordedAnswer<T>>;
}

/** What one CMS call asked of the cache; collected per request for the ISR cache. */
export interface CmsCallRecord {
  path: string;
  revalidate: number;
  /**
   * What the call read (recordedTags): the type's tag when the call is made, the rest once the
   * answer is in (a call that fails, a single type's 404 among them, keeps the type's tag).
   */
  tags: string[];
  /** True when the call carried a user's JWT: the response must not be shared. */
  perUser: boolean;
}

export interface CmsClientConfig {
  baseUrl: string;
  apiToken: string;
  timeoutMs: number;
  /** Called once per call, before the request is sent; the record's tags are completed when the answer comes. */
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
  get<Schema extends z.ZodType>(path: string, schema: Schema, options: CmsFetchOptions): Promise<z.infer<Schema>>;
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
    async get(path, schema, options) {
      if (!path.startsWith("/api/")) throw new Error(`CMS paths start with /api/, got ${path}`);
      if (options.useProxy) {
        throw new Error("useProxy is for browser-side calls; on the server the client calls the CMS directly");
      }
      const userJWT = options.omitUserAuthorization
        ? undefined
        : (options.userJWT ?? (config.sessionJWT ? await config.sessionJWT() : undefined));
      const perUser = userJWT !== undefined;
      const revalidate = options.revalidate ?? CMS_REVALIDATE.base;
      const { type, query, signal, pagePath, dependsOn } = options;
      const call: RecordedCall = { type, query, pagePath, dependsOn };
      const record: CmsCallRecord = {
        path,
        revalidate,
        tags: [typeTag(type)],
        perUser: perUser || options.draft !== undefined,
      };
      config.onCall?.(record);

      if (options.draft) {
        const { apiToken: secret, variable } = options.draft;
        const draftQuery = { ...query, status: "draft" };
        const body = await http.json({ path, query: draftQuery, credential: { secret, variable }, signal });
        record.tags = recordedTags(call, body);
        return parseCmsAnswer(schema, body, path);
      }
      if (perUser || !config.dataCache || revalidate <= 0) {
        const body = await http.json({ path, query, credential: perUser ? { userJWT } : apiToken, signal });
        record.tags = recordedTags(call, body);
        return parseCmsAnswer(schema, body, path);
      }
      // A shared fetch: one visitor going away must not abort it for the others. The tags known
      // before the answer are those of an empty list (type, list, the document asked for).
      const cached = await config.dataCache.load(
        http.url(path, query),
        { path: pagePath ?? "", tags: recordedTags(call, { data: [] }), revalidate },
        async () => {
          const body = await http.json({ path, query, credential: apiToken });
          return { value: body, tags: recordedTags(call, body) };
        },
      );
      record.tags = cached.tags;
      return parseCmsAnswer(schema, cached.value, path);
    },
  };
}
