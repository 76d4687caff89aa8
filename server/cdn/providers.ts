/**
 * CDN purge providers behind one small interface. Which one is used is configuration
 * (CDN_PROVIDER); each knows its vendor's documented request shapes.
 */

export interface PurgeRequest {
  /** Site paths (`/company`): purged as absolute URLs of APP_PUBLIC_URL. */
  paths: string[];
  /** Cache tags, as the pages carry them in Cache-Tag / Surrogate-Key. */
  tags: string[];
  everything: boolean;
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

/** The CDN refused or could not be reached: answer 502 with what it said. */
export class CdnError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CdnError";
  }
}

type Fetch = typeof fetch;

async function send(doFetch: Fetch, label: string, url: string, init: RequestInit, timeoutMs: number): Promise<void> {
  let response: Response;
  try {
    response = await doFetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    throw new CdnError(`${label}: the CDN could not be reached (${(error as Error).message})`);
  }
  const text = await response.text().catch(() => "");
  if (!response.ok) throw new CdnError(`${label}: the CDN answered ${response.status} ${text.slice(0, 200)}`);
}

const chunk = <T>(items: T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, index) => items.slice(index * size, index * size + size));

export interface ProviderOptions {
  siteUrl: string;
  timeoutMs: number;
  fetch?: Fetch;
}

/** Cloudflare: POST /zones/:zone/purge_cache with files (URLs), tags, or purge_everything. */
export function cloudflareProvider(
  config: { zoneId: string; apiToken: string; apiBase?: string },
  options: ProviderOptions,
): CdnProvider {
  const doFetch = options.fetch ?? fetch;
  const endpoint = `${config.apiBase ?? "https://api.cloudflare.com/client/v4"}/zones/${config.zoneId}/purge_cache`;
  const post = (body: unknown) =>
    send(
      doFetch,
      "cloudflare",
      endpoint,
      {
        method: "POST",
        headers: { authorization: `Bearer ${config.apiToken}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      },
      options.timeoutMs,
    );
  return {
    name: "cloudflare",
    async purge({ paths, tags, everything }) {
      const requests: string[] = [];
      if (everything) {
        await post({ purge_everything: true });
        return { provider: "cloudflare", requests: ["purge_everything"] };
      }
      // Cloudflare takes at most 30 URLs / 30 tags per call.
      for (const files of chunk(
        paths.map((path) => `${options.siteUrl}${path}`),
        30,
      )) {
        await post({ files });
        requests.push(`files ${files.join(" ")}`);
      }
      for (const group of chunk(tags, 30)) {
        await post({ tags: group });
        requests.push(`tags ${group.join(" ")}`);
      }
      return { provider: "cloudflare", requests };
    },
  };
}

/** Fastly: soft purge by surrogate key (POST /service/:id/purge, Surrogate-Key header) and by URL (POST /purge/<url>). */
export function fastlyProvider(
  config: { serviceId: string; apiToken: string; apiBase?: string },
  options: ProviderOptions,
): CdnProvider {
  const doFetch = options.fetch ?? fetch;
  const base = config.apiBase ?? "https://api.fastly.com";
  const headers = { "fastly-key": config.apiToken, "fastly-soft-purge": "1", accept: "application/json" };
  return {
    name: "fastly",
    async purge({ paths, tags, everything }) {
      const requests: string[] = [];
      if (everything) {
        await send(
          doFetch,
          "fastly",
          `${base}/service/${config.serviceId}/purge_all`,
          { method: "POST", headers: { "fastly-key": config.apiToken } },
          options.timeoutMs,
        );
        return { provider: "fastly", requests: ["purge_all"] };
      }
      for (const keys of chunk(
        tags.map((tag) => tag.replaceAll(" ", "_")),
        256,
      )) {
        await send(
          doFetch,
          "fastly",
          `${base}/service/${config.serviceId}/purge`,
          { method: "POST", headers: { ...headers, "surrogate-key": keys.join(" ") } },
          options.timeoutMs,
        );
        requests.push(`surrogate-keys ${keys.join(" ")}`);
      }
      for (const path of paths) {
        const url = new URL(path, options.siteUrl);
        await send(
          doFetch,
          "fastly",
          `${base}/purge/${url.host}${url.pathname}${url.search}`,
          { method: "POST", headers },
          options.timeoutMs,
        );
        requests.push(`url ${url.href}`);
      }
      return { provider: "fastly", requests };
    },
  };
}

/**
 * Any HTTP cache that takes purge requests (Varnish, nginx): `PURGE <path>` per path,
 * `BAN` with `X-Purge-Tags: <tags>` for tags, and `BAN` with `X-Purge-All: 1` for everything.
 * docs/varnish/default.vcl is a Varnish configuration that understands them.
 */
export function httpPurgeProvider(config: { purgeUrl: string; host: string }, options: ProviderOptions): CdnProvider {
  const doFetch = options.fetch ?? fetch;
  const headers = { host: config.host };
  return {
    name: "http",
    async purge({ paths, tags, everything }) {
      const requests: string[] = [];
      if (everything) {
        await send(
          doFetch,
          "http",
          `${config.purgeUrl}/`,
          { method: "BAN", headers: { ...headers, "x-purge-all": "1" } },
          options.timeoutMs,
        );
        return { provider: "http", requests: ["BAN everything"] };
      }
      for (const path of paths) {
        await send(doFetch, "http", `${config.purgeUrl}${path}`, { method: "PURGE", headers }, options.timeoutMs);
        requests.push(`PURGE ${path}`);
      }
      if (tags.length) {
        await send(
          doFetch,
          "http",
          `${config.purgeUrl}/`,
          { method: "BAN", headers: { ...headers, "x-purge-tags": tags.join(" ") } },
          options.timeoutMs,
        );
        requests.push(`BAN tags ${tags.join(" ")}`);
      }
      return { provider: "http", requests };
    },
  };
}
