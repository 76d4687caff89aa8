import { CdnError, type PurgeGate } from "./purge-gate.ts";

export { CdnError } from "./purge-gate.ts";

/**
 * CDN purge providers behind one small interface. Which one is used is configuration
 * (CDN_PROVIDER); each knows its vendor's documented request shapes. Every request goes
 * through the provider's gate (purge-gate.ts: rate limit, bounded wait, retries with backoff).
 */

export interface PurgeRequest {
  /** Site paths (`/company`): purged as absolute URLs of APP_PUBLIC_URL. */
  paths: string[];
  /** Cache tags, as the pages carry them in Cache-Tag / Surrogate-Key. */
  tags: string[];
  everything: boolean;
  /**
   * Mark stale rather than evict, where the CDN can (Fastly soft purge; Varnish purge.soft for
   * paths). Publishes ask for it; the site honours it only with CDN_SOFT_PURGE=true (decision 0028).
   */
  soft?: boolean;
}

export interface PurgeResult {
  provider: string;
  /** One line per request made to the CDN, for the answer and the log. */
  requests: string[];
}

export interface CdnProvider {
  readonly name: string;
  purge(request: PurgeRequest): Promise<PurgeResult>;
}

type Fetch = typeof fetch;

/** Retry-After (seconds, or an HTTP date) in ms; undefined when absent or unreadable. */
function retryAfterMs(value: string | null): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** One request to the CDN's API. 429, 5xx and no answer are retryable CdnErrors. */
async function attempt(doFetch: Fetch, label: string, url: string, init: RequestInit, timeoutMs: number) {
  let response: Response;
  try {
    response = await doFetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    throw new CdnError(`${label}: the CDN could not be reached (${(error as Error).message})`, true);
  }
  const text = await response.text().catch(() => "");
  if (!response.ok)
    throw new CdnError(
      `${label}: the CDN answered ${response.status} ${text.slice(0, 200)}`,
      response.status === 429 || response.status >= 500,
      retryAfterMs(response.headers.get("retry-after")),
    );
}

/** A request through the gate (purge-gate.ts), or straight when there is none. */
function sender(options: ProviderOptions) {
  const doFetch = options.fetch ?? fetch;
  return (label: string, url: string, init: RequestInit): Promise<void> => {
    const call = () => attempt(doFetch, label, url, init, options.timeoutMs);
    return options.gate ? options.gate.run(call) : call();
  };
}

const chunk = <T>(items: T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, index) => items.slice(index * size, index * size + size));

export interface ProviderOptions {
  siteUrl: string;
  timeoutMs: number;
  fetch?: Fetch;
  /** Rate limit and retries of every request to the CDN. */
  gate?: PurgeGate;
  /** Tags per request (Cloudflare: 100 on the free plan; Fastly: 256 surrogate keys). */
  maxTagsPerRequest?: number;
}

/**
 * Cloudflare: POST /zones/:zone/purge_cache with files (URLs, 30 a request), tags (100 a request
 * on the free plan: maxTagsPerRequest), or purge_everything. Cloudflare has no soft purge.
 */
export function cloudflareProvider(
  config: { zoneId: string; apiToken: string; apiBase?: string },
  options: ProviderOptions,
): CdnProvider {
  const send = sender(options);
  const endpoint = `${config.apiBase ?? "https://api.cloudflare.com/client/v4"}/zones/${config.zoneId}/purge_cache`;
  const post = (body: unknown) =>
    send("cloudflare", endpoint, {
      method: "POST",
      headers: { authorization: `Bearer ${config.apiToken}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  return {
    name: "cloudflare",
    async purge({ paths, tags, everything }) {
      const requests: string[] = [];
      if (everything) {
        await post({ purge_everything: true });
        return { provider: "cloudflare", requests: ["purge_everything"] };
      }
      // Cloudflare takes at most 30 URLs per call, and maxTagsPerRequest tags.
      for (const files of chunk(
        paths.map((path) => `${options.siteUrl}${path}`),
        30,
      )) {
        await post({ files });
        requests.push(`files ${files.join(" ")}`);
      }
      for (const group of chunk(tags, options.maxTagsPerRequest ?? 100)) {
        await post({ tags: group });
        requests.push(`tags ${group.join(" ")}`);
      }
      return { provider: "cloudflare", requests };
    },
  };
}

/**
 * Fastly: purge by surrogate key, batched (POST /service/:id/purge, Surrogate-Key header, up to
 * 256 keys a request) and by URL (POST /purge/<url>); `soft`: Fastly-Soft-Purge: 1 (marks stale).
 */
export function fastlyProvider(
  config: { serviceId: string; apiToken: string; apiBase?: string },
  options: ProviderOptions,
): CdnProvider {
  const send = sender(options);
  const base = config.apiBase ?? "https://api.fastly.com";
  return {
    name: "fastly",
    async purge({ paths, tags, everything, soft }) {
      const headers = {
        "fastly-key": config.apiToken,
        accept: "application/json",
        ...(soft ? { "fastly-soft-purge": "1" } : {}),
      };
      const requests: string[] = [];
      if (everything) {
        await send("fastly", `${base}/service/${config.serviceId}/purge_all`, {
          method: "POST",
          headers: { "fastly-key": config.apiToken },
        });
        return { provider: "fastly", requests: ["purge_all"] };
      }
      const how = soft ? "soft " : "";
      for (const keys of chunk(
        tags.map((tag) => tag.replaceAll(" ", "_")),
        Math.min(256, options.maxTagsPerRequest ?? 256),
      )) {
        await send("fastly", `${base}/service/${config.serviceId}/purge`, {
          method: "POST",
          headers: { ...headers, "surrogate-key": keys.join(" ") },
        });
        requests.push(`${how}surrogate-keys ${keys.join(" ")}`);
      }
      for (const path of paths) {
        const url = new URL(path, options.siteUrl);
        await send("fastly", `${base}/purge/${url.host}${url.pathname}${url.search}`, { method: "POST", headers });
        requests.push(`${how}url ${url.href}`);
      }
      return { provider: "fastly", requests };
    },
  };
}

/**
 * Any HTTP cache that takes purge requests (Varnish, nginx): `PURGE <path>` per path (with
 * `X-Purge-Soft: 1` when soft: Varnish's purge.soft keeps the object in grace), `BAN` with
 * `X-Purge-Tags: <tags>` for tags (a ban is always hard), and `BAN` with `X-Purge-All: 1` for
 * everything. docs/varnish/default.vcl is a Varnish configuration that understands them.
 */
export function httpPurgeProvider(config: { purgeUrl: string; host: string }, options: ProviderOptions): CdnProvider {
  const send = sender(options);
  const headers = { host: config.host };
  return {
    name: "http",
    async purge({ paths, tags, everything, soft }) {
      const requests: string[] = [];
      if (everything) {
        await send("http", `${config.purgeUrl}/`, { method: "BAN", headers: { ...headers, "x-purge-all": "1" } });
        return { provider: "http", requests: ["BAN everything"] };
      }
      for (const path of paths) {
        await send("http", `${config.purgeUrl}${path}`, {
          method: "PURGE",
          headers: soft ? { ...headers, "x-purge-soft": "1" } : headers,
        });
        requests.push(`${soft ? "soft " : ""}PURGE ${path}`);
      }
      for (const group of chunk(tags, options.maxTagsPerRequest ?? 100)) {
        await send("http", `${config.purgeUrl}/`, {
          method: "BAN",
          headers: { ...headers, "x-purge-tags": group.join(" ") },
        });
        requests.push(`BAN tags ${group.join(" ")}`);
      }
      return { provider: "http", requests };
    },
  };
}
