import { MAX_PATH_LENGTH, MAX_TAG_LENGTH, MAX_TAGS, pathTag } from "@cms-site/cache-tags";
import * as z from "zod";

import { jsonAnswer, readSecuredJson } from "../http/secured-json-post.ts";
import { describeIssues } from "../revalidation/payload.ts";
import { createPurgeGate } from "./purge-gate.ts";
import { CdnError, cloudflareProvider, fastlyProvider, httpPurgeProvider, type CdnProvider } from "./providers.ts";

/**
 * POST /api/cdn-purge: evicts pages from the CDN in front of the site right now (hot fixes,
 * takedowns), unlike revalidation, which only marks the site's own cache stale. Same status
 * rules as /api/cms-revalidate, with its own secret (CMS_CDN_PURGE_SECRET).
 */

export const purgePayloadSchema = z
  .object({
    paths: z
      .array(
        z
          .string()
          .max(MAX_PATH_LENGTH)
          .startsWith("/", "must start with /")
          .refine((path) => !/[\s#]/.test(path), "must be a path"),
      )
      .max(MAX_TAGS)
      .optional(),
    tags: z
      .array(
        z
          .string()
          .min(1, "must not be empty")
          .max(MAX_TAG_LENGTH)
          .refine((tag) => !/[\s,]/.test(tag), "must not contain spaces or commas"),
      )
      .max(MAX_TAGS)
      .optional(),
    everything: z.literal(true, { error: "must be true when given" }).optional(),
    /** A publish's purge (mark stale where the CDN can); a takedown's is hard (decision 0028). */
    soft: z.boolean({ error: "must be true or false" }).optional(),
  })
  .refine((body) => body.everything || (body.paths?.length ?? 0) + (body.tags?.length ?? 0) > 0, {
    message: "must list paths or tags, or set everything: true",
  });

/** Purge requests a minute when CDN_PURGE_PER_MINUTE is unset: Cloudflare's free plan allows 5. */
const DEFAULT_PURGES_PER_MINUTE: Record<string, number> = { cloudflare: 5, fastly: 0, http: 0 };

/**
 * The CDN settings, named as the environment variables that usually carry them (docs of the
 * package's README): a site's parsed configuration can be passed as it is.
 */
export interface CdnSettings {
  CDN_PROVIDER: "none" | "cloudflare" | "fastly" | "http";
  /** The site's public origin: paths are purged as its absolute URLs. */
  APP_PUBLIC_URL: string;
  /** How long one request to the CDN's API may take (ms). */
  CMS_FETCH_TIMEOUT_MS: number;
  CDN_PURGE_PER_MINUTE?: number;
  CDN_PURGE_MAX_TAGS?: number;
  CLOUDFLARE_ZONE_ID?: string;
  CLOUDFLARE_API_TOKEN?: string;
  CLOUDFLARE_API_BASE?: string;
  FASTLY_SERVICE_ID?: string;
  FASTLY_API_TOKEN?: string;
  FASTLY_API_BASE?: string;
  CDN_PURGE_URL?: string;
}

/** The CDN the settings name (CDN_PROVIDER), or null for none; its requests go through one gate. */
export function cdnProviderOf(env: CdnSettings): CdnProvider | null {
  if (env.CDN_PROVIDER === "none") return null;
  const gate = createPurgeGate({
    perMinute: env.CDN_PURGE_PER_MINUTE ?? DEFAULT_PURGES_PER_MINUTE[env.CDN_PROVIDER] ?? 0,
    // The CMS waits CMS's purgeTimeoutMs (10 s) for the answer: a longer wait would be answered to nobody.
    maxWaitMs: 8_000,
    maxQueued: 100,
    retries: 3,
    baseDelayMs: 250,
    maxDelayMs: 4_000,
  });
  const options = {
    siteUrl: env.APP_PUBLIC_URL,
    timeoutMs: env.CMS_FETCH_TIMEOUT_MS,
    gate,
    maxTagsPerRequest: env.CDN_PURGE_MAX_TAGS,
  };
  switch (env.CDN_PROVIDER) {
    case "cloudflare":
      return cloudflareProvider(
        {
          zoneId: env.CLOUDFLARE_ZONE_ID ?? "",
          apiToken: env.CLOUDFLARE_API_TOKEN ?? "",
          apiBase: env.CLOUDFLARE_API_BASE,
        },
        options,
      );
    case "fastly":
      return fastlyProvider(
        { serviceId: env.FASTLY_SERVICE_ID ?? "", apiToken: env.FASTLY_API_TOKEN ?? "", apiBase: env.FASTLY_API_BASE },
        options,
      );
    case "http":
      return httpPurgeProvider({ purgeUrl: env.CDN_PURGE_URL ?? "", host: new URL(env.APP_PUBLIC_URL).host }, options);
    default:
      return null;
  }
}

export async function handleCdnPurge(
  request: Request,
  deps: {
    secret: string | undefined;
    provider: CdnProvider | null;
    /** CDN_SOFT_PURGE: a request's `soft` is honoured only when true; otherwise every purge is hard. */
    softPurge?: boolean;
    log?: (line: string) => void;
  },
): Promise<Response> {
  const log = deps.log ?? (() => undefined);
  const read = await readSecuredJson(request, {
    secret: deps.secret,
    secretName: "CMS_CDN_PURGE_SECRET",
    bodyLimit: 64 * 1024,
    log,
    logPrefix: "[cdn-purge]",
  });
  if (!read.ok) return read.response;
  const parsed = purgePayloadSchema.safeParse(read.body);
  if (!parsed.success)
    return jsonAnswer({ error: "Invalid purge request.", issues: describeIssues(parsed.error) }, 400);
  if (!deps.provider) {
    return jsonAnswer(
      { error: "No CDN is configured: set CDN_PROVIDER to cloudflare, fastly or http (see docs/configuration.md)." },
      501,
    );
  }
  const paths = parsed.data.paths ?? [];
  const request_ = {
    paths,
    // A path's tag as well as its URL: every answer at that path carries `path:<path>` in its tags
    // (response-cache.ts), so its `.data` twin, its query variants and a cached 404 go too, which a
    // purge of the one URL would leave at the edge.
    tags: [...new Set([...(parsed.data.tags ?? []), ...paths.map(pathTag)])],
    everything: parsed.data.everything ?? false,
    soft: (parsed.data.soft ?? false) && deps.softPurge === true,
  };
  try {
    const result = await deps.provider.purge(request_);
    log(`[cdn-purge] provider=${result.provider} ${result.requests.join("; ")}`);
    return jsonAnswer({ purged: true, ...result }, 200);
  } catch (error) {
    if (!(error instanceof CdnError)) throw error;
    log(`[cdn-purge] failed: ${error.message}`);
    return jsonAnswer({ error: `The CDN did not take the purge: ${error.message}` }, 502);
  }
}
