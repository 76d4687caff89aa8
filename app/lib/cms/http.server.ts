import { stringify } from "qs";
import * as z from "zod";

import { CmsError, type StrapiError } from "./errors.server.ts";

/**
 * The one way the server talks HTTP to the CMS: content (client.server.ts), accounts
 * (auth/cms-users.server.ts), the OAuth sync (auth/cms-oauth-sync.server.ts), the second factor
 * (auth/cms-two-factor.server.ts), media (media-proxy.server.ts), the browser's proxy
 * (routes/api.cms-proxy.$.ts) and the readiness check (server/operational-routes.ts) all call
 * through here. It joins the base URL, bounds each
 * call with a timeout (combined with the caller's signal), sets the Authorization header, and
 * turns every failure into a CmsError (errors.server.ts): no answer or too late → "unavailable";
 * an error status → its kind, with Strapi's `{ error: { status, name, message, details } }`
 * kept on `strapiError`; not JSON or not the schema's shape → "bad-response".
 * What a failure means to the visitor (a 503 page, an auth code) stays with each caller.
 */

/** Who a call acts as, that is which Bearer token it carries. No credential: no Authorization header. */
export type CmsCredential =
  /** The front end's read-only API token (CMS_REST_READONLY_API_KEY): public content. */
  | { apiToken: string }
  /** A signed-in visitor's CMS JWT: a per-user call. */
  | { userJWT: string }
  /** A secret the two sides share; `variable` names it for the operator (CMS_OAUTH_SYNC_SECRET). */
  | { secret: string; variable: string };

export interface CmsHttpConfig {
  /** The CMS's base URL (CMS_URL); a path in it is kept, a trailing slash is not doubled. */
  baseUrl: string;
  /** How long a call may take, its answer's body included (CMS_FETCH_TIMEOUT_MS). */
  timeoutMs: number;
  fetch?: typeof fetch;
  /**
   * CMS_ACCOUNT_API_SECRET, sent as `X-Site-Secret` on every call of this client: the CMS answers
   * its account routes (/api/auth/*, /api/connect/*) only with it (docs/cms-contract.md). Given
   * by the account clients only, never by the browser's proxy; never logged.
   */
  siteSecret?: string;
}

export interface CmsRequest {
  /** From the CMS's root, with its leading slash: `/api/pages`, `/_health`. No query in it. */
  path: string;
  method?: "GET" | "HEAD" | "POST" | "PUT" | "DELETE";
  /** Query parameters, encoded the way Strapi reads them (`filters[fullPath][$eq]=…`). */
  query?: Record<string, unknown>;
  /** Sent as JSON. */
  body?: unknown;
  credential?: CmsCredential;
  /** The caller's own signal (the visitor went away): its abort is rethrown as it is, not as a CmsError. */
  signal?: AbortSignal;
  /** Request headers instead of the default `accept: application/json` (Authorization and content type are added). */
  headers?: Record<string, string>;
  /** This call's limit instead of the configured one. */
  timeoutMs?: number;
  /**
   * What the limit covers: the answer and its body (default), or only the wait for the answer's
   * status and headers, for a body streamed through that may take longer (a large file).
   */
  timeoutCovers?: "body" | "headers";
  redirect?: RequestRedirect;
}

export interface CmsHttp {
  /** The full URL of a path and query (also the data cache's key). */
  url(path: string, query?: Record<string, unknown>): string;
  /**
   * The CMS's answer whatever its status, body unread (a caller streams it, or reads it):
   * only "no answer" throws. The timeout keeps running while the body is read.
   */
  send(request: CmsRequest): Promise<Response>;
  /** The JSON of a 2xx answer (parsed with `schema` when given); any other answer throws a CmsError. */
  json(request: CmsRequest): Promise<unknown>;
  json<Schema extends z.ZodType>(request: CmsRequest, schema: Schema): Promise<z.output<Schema>>;
}

/** Strapi's error body; a field that is missing or not a string is read as empty, not as "no error". */
const strapiErrorSchema = z
  .object({ error: z.record(z.string(), z.unknown()) })
  .transform(({ error }): StrapiError => ({
    name: typeof error.name === "string" ? error.name : "Error",
    message: typeof error.message === "string" ? error.message : "",
    details: error.details,
  }));

/** An error answer larger than this is not read for Strapi's explanation. */
const MAX_ERROR_BODY_CHARS = 64 * 1024;

export function createCmsHttp(config: CmsHttpConfig): CmsHttp {
  const doFetch = config.fetch ?? fetch;
  const base = config.baseUrl.replace(/\/+$/, "");

  function url(path: string, query?: Record<string, unknown>): string {
    if (!/^\/(?!\/)[^?#]*$/.test(path)) throw new Error(`A CMS path starts with one / and has no query: ${path}`);
    const search = query ? stringify(query, { encodeValuesOnly: true }) : "";
    return `${base}${path}${search ? `?${search}` : ""}`;
  }

  /** The answer, and the timeout signal that still bounds the reading of its body. */
  async function open(request: CmsRequest): Promise<{ response: Response; timeout: AbortSignal; timeoutMs: number }> {
    const timeoutMs = request.timeoutMs ?? config.timeoutMs;
    // Covering the headers only, the clock stops once they are in; AbortSignal.timeout cannot be stopped.
    const headersOnly = request.timeoutCovers === "headers" ? new AbortController() : undefined;
    const clock =
      headersOnly && setTimeout(() => headersOnly.abort(new DOMException("timeout", "TimeoutError")), timeoutMs);
    const timeout = headersOnly?.signal ?? AbortSignal.timeout(timeoutMs);
    const headers: Record<string, string> = { ...(request.headers ?? { accept: "application/json" }) };
    if (request.body !== undefined) headers["content-type"] = "application/json";
    if (request.credential) headers.authorization = `Bearer ${bearerOf(request.credential)}`;
    if (config.siteSecret) headers["x-site-secret"] = config.siteSecret;
    const target = url(request.path, request.query);
    try {
      const response = await doFetch(target, {
        method: request.method ?? "GET",
        headers,
        body: request.body === undefined ? undefined : JSON.stringify(request.body),
        signal: request.signal ? AbortSignal.any([timeout, request.signal]) : timeout,
        redirect: request.redirect,
      });
      return { response, timeout, timeoutMs };
    } catch (error) {
      throw noAnswer(error, request, timeout, timeoutMs);
    } finally {
      clearTimeout(clock);
    }
  }

  async function json(request: CmsRequest, schema?: z.ZodType): Promise<unknown> {
    const { response, timeout, timeoutMs } = await open(request);
    if (!response.ok) {
      const strapiError = await readStrapiError(response);
      throw CmsError.fromStatus(response.status, request.path, request.credential, strapiError);
    }
    let body: unknown;
    try {
      body = await response.json();
    } catch (error) {
      if (request.signal?.aborted || timeout.aborted) throw noAnswer(error, request, timeout, timeoutMs);
      throw new CmsError("bad-response", `The CMS answered ${request.path} with something that is not JSON.`, {
        cause: error,
        cmsStatus: response.status,
      });
    }
    return schema ? parseCmsAnswer(schema, body, request.path) : body;
  }

  return {
    url,
    send: async (request) => (await open(request)).response,
    json: json as CmsHttp["json"],
  };
}

/** A CMS answer read with a schema; the wrong shape is a "bad-response" CmsError. */
export function parseCmsAnswer<Schema extends z.ZodType>(
  schema: Schema,
  body: unknown,
  path: string,
): z.output<Schema> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    throw new CmsError("bad-response", `The CMS answered ${path} in an unexpected shape.`, { cause: parsed.error });
  }
  return parsed.data;
}

function bearerOf(credential: CmsCredential): string {
  if ("userJWT" in credential) return credential.userJWT;
  if ("apiToken" in credential) return credential.apiToken;
  return credential.secret;
}

/** The call got no (complete) answer: the caller's abort as it is, else "unavailable". */
function noAnswer(error: unknown, request: CmsRequest, timeout: AbortSignal, timeoutMs: number): unknown {
  if (request.signal?.aborted) return error;
  const timedOut = timeout.aborted || (error instanceof DOMException && error.name === "TimeoutError");
  return new CmsError(
    "unavailable",
    timedOut
      ? `The CMS did not answer within ${timeoutMs} ms (${request.path}).`
      : `The CMS could not be reached (${request.path}).`,
    { cause: error, timedOut },
  );
}

/** Strapi's explanation in an error answer, if the body is one; the body is consumed either way. */
async function readStrapiError(response: Response): Promise<StrapiError | undefined> {
  const length = Number(response.headers.get("content-length") ?? 0);
  if (length > MAX_ERROR_BODY_CHARS) {
    await response.body?.cancel().catch(() => undefined);
    return undefined;
  }
  const text = await response.text().catch(() => "");
  if (!text || text.length > MAX_ERROR_BODY_CHARS) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  return strapiErrorSchema.safeParse(parsed).data;
}
