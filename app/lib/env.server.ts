import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import * as z from "zod";

import { LOG_LEVELS } from "./logger.server.ts";
import { SITEMAP_MAX_URLS } from "./seo/sitemap.ts";

/**
 * The front end's configuration, validated once at boot (server/index.ts parseEnv) into one
 * object that is passed down: to the page cache, the operational routes and the app
 * (server/app.ts createApp), whose route modules read it from the router context
 * (`context.get(configContext)`, app/lib/request-context.server.ts). In development every variable has a working
 * default, including the CMS read-only token, which the CMS seed writes to a file.
 * In production nothing is guessed: a missing variable stops the server with a list.
 */

const DEVELOPMENT_CMS_URL = "http://127.0.0.1:1337";
/** Where the CMS seed writes the plain read-only API token (see cms/README.md). */
const DEVELOPMENT_TOKEN_FILE = "cms/.tmp/frontend-readonly-token";

const missingOr = (message: string) => (issue: { input?: unknown }) =>
  issue.input === undefined ? "is missing" : message;

const httpUrl = (what: string) =>
  z
    .url({ protocol: /^https?$/, error: missingOr(`must be an http(s) URL (${what})`) })
    .transform((value) => value.replace(/\/+$/, ""));

const envSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"], {
      error: "must be one of development, production, test",
    }),
    PORT: z.coerce
      .number({ error: missingOr("must be a whole number") })
      .int("must be a whole number")
      .min(1, "must be between 1 and 65535")
      .max(65535, "must be between 1 and 65535"),
    HOST: z.string({ error: missingOr("must be a host name or address") }).min(1, "must not be empty"),
    APP_PUBLIC_URL: httpUrl("the address visitors use, e.g. https://www.example.com"),
    CMS_URL: httpUrl("the CMS base URL, e.g. https://cms.example.com"),
    /**
     * Where the CMS's media is public (a CDN in front of its /uploads, or a cloud bucket's origin):
     * relative media URLs are put after it and the CSP's img-src allows it. Unset: the site serves
     * /uploads/* itself from CMS_URL (app/lib/cms/media.ts, docs/decisions/0017).
     */
    CMS_MEDIA_URL: httpUrl("where the CMS's media is public, e.g. https://media.example.com").optional(),
    CMS_REST_READONLY_API_KEY: z
      .string({ error: missingOr("must be a string") })
      .min(16, "looks too short for a Strapi API token"),
    CMS_FETCH_TIMEOUT_MS: z.coerce
      .number({ error: missingOr("must be a whole number of milliseconds") })
      .int("must be a whole number of milliseconds")
      .min(100, "must be at least 100 ms")
      .max(120_000, "must be at most 120000 ms"),
    APP_LOCALES: z
      .string({ error: missingOr("must be a comma-separated list") })
      .transform((value) =>
        value
          .split(",")
          .map((locale) => locale.trim())
          .filter(Boolean),
      )
      .pipe(
        z
          .array(z.string().regex(/^[a-z]{2}(-[A-Z]{2})?$/, "each locale must look like en or en-US"))
          .min(1, "must list at least one locale"),
      ),
    APP_DEFAULT_LOCALE: z.string({ error: missingOr("must be a locale code") }),
    PAGE_CACHE_MAX_BYTES: z.coerce
      .number({ error: missingOr("must be a number of bytes") })
      .int("must be a whole number of bytes")
      .min(1_048_576, "must be at least 1048576 (1 MiB)"),
    /** Unset: the revalidation route answers 503 (revalidation is not configured). */
    CMS_REVALIDATE_SECRET: z.string().min(16, "must be at least 16 characters").optional(),
    /**
     * The secret the CMS admin's Preview puts in GET /api/preview?secret=… (the same value in the
     * CMS's env); unset: preview is off (the route answers 503). Development has a default.
     */
    CMS_PREVIEW_SECRET: z.string().min(16, "must be at least 16 characters").optional(),
    /** A Strapi API token that may read drafts, for previews only; unset: CMS_REST_READONLY_API_KEY. Server only. */
    CMS_PREVIEW_API_TOKEN: z.string().min(16, "looks too short for a Strapi API token").optional(),
    /** The address editors open the CMS admin at, allowed to frame preview answers; unset: CMS_URL. */
    CMS_ADMIN_URL: httpUrl("the CMS admin's public address, e.g. https://cms.example.com").optional(),
    /** Unset: no metrics endpoint. */
    METRICS_SECRET: z.string().min(16, "must be at least 16 characters").optional(),
    SESSION_AUTH_SECRET: z
      .string({ error: missingOr("must be a string") })
      .min(32, "must be at least 32 characters (e.g. openssl rand -base64 32)"),
    /** Server-to-server secret for the CMS's OAuth sync route; unset: OAuth sign-in is off. */
    CMS_OAUTH_SYNC_SECRET: z.string().min(16, "must be at least 16 characters").optional(),
    /**
     * Server-to-server secret the CMS wants (X-Site-Secret) on its account routes /api/auth/*,
     * /api/connect/* (security finding 24); set it on both sides. Unset: the site sends none.
     */
    CMS_ACCOUNT_API_SECRET: z.string().trim().min(16, "must be at least 16 characters").optional(),
    GITHUB_CLIENT_ID: z.string().min(1).optional(),
    GITHUB_CLIENT_SECRET: z.string().min(1).optional(),
    GOOGLE_CLIENT_ID: z.string().min(1).optional(),
    GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
    /** Any OpenID Connect provider (the tests use a local one). */
    OIDC_ISSUER: httpUrl("the provider's issuer URL").optional(),
    OIDC_CLIENT_ID: z.string().min(1).optional(),
    OIDC_CLIENT_SECRET: z.string().min(1).optional(),
    OIDC_PROVIDER_ID: z.string().regex(/^[a-z0-9-]{1,40}$/, "must be lower-case letters, digits and dashes"),
    OIDC_PROVIDER_NAME: z.string().min(1).max(40),
    /** Bearer secret of POST /api/cdn-purge (not the revalidation one); unset: the route answers 503. */
    CMS_CDN_PURGE_SECRET: z.string().min(16, "must be at least 16 characters").optional(),
    CDN_PROVIDER: z.enum(["none", "cloudflare", "fastly", "http"], {
      error: "must be none, cloudflare, fastly or http",
    }),
    CLOUDFLARE_ZONE_ID: z.string().min(1).optional(),
    CLOUDFLARE_API_TOKEN: z.string().min(1).optional(),
    CLOUDFLARE_API_BASE: httpUrl("Cloudflare's API base, for tests").optional(),
    FASTLY_SERVICE_ID: z.string().min(1).optional(),
    FASTLY_API_TOKEN: z.string().min(1).optional(),
    FASTLY_API_BASE: httpUrl("Fastly's API base, for tests").optional(),
    /** The HTTP cache (Varnish, nginx) that takes PURGE/BAN requests, e.g. http://127.0.0.1:6081. */
    CDN_PURGE_URL: httpUrl("the address of the HTTP cache that takes PURGE/BAN").optional(),
    /**
     * How long the CDN may keep a page (CDN-Cache-Control s-maxage, seconds). Unset: a day with a
     * CDN that is purged (CDN_PROVIDER set), the page's own interval without one
     * (docs/decisions/0028-publish-to-visible-at-the-edge.md).
     */
    CDN_S_MAXAGE: z.coerce
      .number({ error: missingOr("must be a whole number of seconds") })
      .int("must be a whole number of seconds")
      .min(0, "must be at least 0")
      .optional(),
    /**
     * Purge requests the site may make to the CDN per minute (a token bucket, this instance). Unset:
     * 5 for cloudflare (its free plan's limit), no limit for fastly and http. 0: no limit.
     */
    CDN_PURGE_PER_MINUTE: z.coerce
      .number({ error: missingOr("must be a whole number") })
      .int("must be a whole number")
      .min(0, "must be at least 0")
      .optional(),
    /** Tags (or URLs) per Cloudflare purge request; Cloudflare's free plan takes 100 tags, 30 URLs. */
    CDN_PURGE_MAX_TAGS: z.coerce
      .number({ error: missingOr("must be a whole number") })
      .int("must be a whole number")
      .min(1, "must be at least 1")
      .max(1000, "must be at most 1000")
      .optional(),
    /**
     * "true": publishes are purged softly where the CDN can (Fastly soft purge, Varnish purge.soft):
     * the edge answers once more with its old copy while it refetches. Default false: hard purges,
     * so nobody gets the old page after the editor's answer (decision 0028).
     */
    CDN_SOFT_PURGE: z.enum(["true", "false"], { error: "must be true or false" }).optional(),
    /** Redis for several instances: shared page cache, invalidations, locks and rate limits. Unset: this process only. */
    REDIS_URL: z.url({ protocol: /^rediss?$/, error: "must be a redis:// or rediss:// URL" }).optional(),
    /** What the logger writes (app/lib/logger.server.ts): info, a line per request and per revalidation. */
    LOG_LEVEL: z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(", ")}` }),
    /** Requests a client (IP) may make to each auth form or endpoint per window. */
    AUTH_RATE_LIMIT_MAX: z.coerce
      .number({ error: missingOr("must be a whole number") })
      .int()
      .min(1),
    AUTH_RATE_LIMIT_WINDOW_SECONDS: z.coerce
      .number({ error: missingOr("must be a whole number") })
      .int()
      .min(1),
    /**
     * Searches (`/search?q=`, each one CMS query, never cached) a client (IP, IPv6 /64) may make
     * per window (app/lib/search/rate-limit.server.ts): generous for a person, a wall for a script.
     */
    SEARCH_RATE_LIMIT_MAX: z.coerce
      .number({ error: missingOr("must be a whole number") })
      .int("must be a whole number")
      .min(1, "must be at least 1"),
    SEARCH_RATE_LIMIT_WINDOW_SECONDS: z.coerce
      .number({ error: missingOr("must be a whole number") })
      .int("must be a whole number")
      .min(1, "must be at least 1"),
    /**
     * The bot check of the sign-in, register and forgot-password forms: a post sent sooner than
     * this after the page was rendered came from a script (docs/decisions/0021). 0: no minimum.
     */
    AUTH_FORM_MIN_FILL_MS: z.coerce
      .number({ error: missingOr("must be a whole number of milliseconds") })
      .int("must be a whole number of milliseconds")
      .min(0, "must be at least 0")
      .max(60_000, "must be at most 60000 ms (a person must be able to send the form)"),
    /**
     * Express "trust proxy": how the real client IP is found behind proxies: `false`, a hop
     * count (`1` behind one proxy), or the proxies' addresses/subnets (`loopback, 10.0.0.0/8`).
     * `true` is refused: it trusts every X-Forwarded-For entry, so a client picks its own IP
     * and with it a fresh rate-limit budget for every request.
     */
    /** How many published pages to request in the background at start (0: none). */
    CACHE_WARM_PAGES: z.coerce
      .number({ error: missingOr("must be a whole number") })
      .int()
      .min(0)
      .max(100_000),
    /** URLs in one sitemap file; past that /sitemap.xml is an index of parts (a lower value: tests). */
    SITEMAP_MAX_URLS: z.coerce
      .number({ error: missingOr("must be a whole number") })
      .int("must be a whole number")
      .min(1, "must be at least 1")
      .max(SITEMAP_MAX_URLS, `must be at most ${SITEMAP_MAX_URLS} (the sitemap protocol's limit)`),
    TRUST_PROXY: z
      .string({ error: missingOr("must be a string") })
      .refine((value) => value.trim().toLowerCase() !== "true", {
        message:
          "must not be true (every client could choose its own IP through X-Forwarded-For): use a hop count such as 1, or the proxies' addresses such as loopback,10.0.0.0/8",
      }),
  })
  .refine((env) => env.CDN_PROVIDER !== "cloudflare" || (env.CLOUDFLARE_ZONE_ID && env.CLOUDFLARE_API_TOKEN), {
    path: ["CDN_PROVIDER"],
    message: "cloudflare needs CLOUDFLARE_ZONE_ID and CLOUDFLARE_API_TOKEN",
  })
  .refine((env) => env.CDN_PROVIDER !== "fastly" || (env.FASTLY_SERVICE_ID && env.FASTLY_API_TOKEN), {
    path: ["CDN_PROVIDER"],
    message: "fastly needs FASTLY_SERVICE_ID and FASTLY_API_TOKEN",
  })
  .refine((env) => env.CDN_PROVIDER !== "http" || env.CDN_PURGE_URL, {
    path: ["CDN_PROVIDER"],
    message: "http needs CDN_PURGE_URL",
  })
  .refine((env) => !env.OIDC_ISSUER || (env.OIDC_CLIENT_ID && env.OIDC_CLIENT_SECRET), {
    path: ["OIDC_CLIENT_ID"],
    message: "OIDC_CLIENT_ID and OIDC_CLIENT_SECRET are needed with OIDC_ISSUER",
  })
  .refine((env) => env.APP_LOCALES.includes(env.APP_DEFAULT_LOCALE), {
    path: ["APP_DEFAULT_LOCALE"],
    message: "must be one of APP_LOCALES",
    // Checked even when other variables are wrong, so one run lists every problem.
    when: ({ value }) => {
      const env = value as { APP_LOCALES?: unknown; APP_DEFAULT_LOCALE?: unknown };
      return Array.isArray(env.APP_LOCALES) && typeof env.APP_DEFAULT_LOCALE === "string";
    },
  });

export type Env = z.infer<typeof envSchema>;

/**
 * Every variable the site reads: the schema's, and the development token's file. `.env.example`
 * lists exactly these (app/lib/env-example.test.ts) and docs/configuration.md says what each does.
 */
export const ENV_VARIABLES: readonly string[] = [...Object.keys(envSchema.shape), "CMS_READONLY_TOKEN_FILE"];

/** One line a variable, what it is for; used in the error message and mirrored in docs/configuration.md. */
const HINTS: Record<string, string> = {
  SESSION_AUTH_SECRET: "secret that encrypts session cookies",
  APP_PUBLIC_URL: "public base URL of this site",
  CMS_URL: "base URL of the Strapi CMS",
  CMS_REST_READONLY_API_KEY: "read-only Strapi API token for public content",
};

export class EnvError extends Error {
  constructor(readonly problems: string[]) {
    super(
      [
        "Invalid environment configuration:",
        ...problems.map((problem) => `  - ${problem}`),
        "Set these variables (see docs/configuration.md) and start again.",
      ].join("\n"),
    );
    this.name = "EnvError";
  }
}

function readDevelopmentToken(source: NodeJS.ProcessEnv): string | undefined {
  const file = resolve(source.CMS_READONLY_TOKEN_FILE || DEVELOPMENT_TOKEN_FILE);
  try {
    return readFileSync(file, "utf8").trim() || undefined;
  } catch {
    return undefined;
  }
}

function withDefaults(source: NodeJS.ProcessEnv): Record<string, string | undefined> {
  // Empty strings count as unset, so `FOO= npm start` does not pass validation silently.
  const given = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== undefined && value !== ""));
  const mode = given.NODE_ENV ?? "development";
  const shared = {
    NODE_ENV: mode,
    CMS_FETCH_TIMEOUT_MS: "5000",
    APP_LOCALES: "en,de",
    APP_DEFAULT_LOCALE: "en",
    HOST: mode === "production" ? "0.0.0.0" : "localhost",
    PORT: "3000",
    PAGE_CACHE_MAX_BYTES: String(64 * 1024 * 1024),
    OIDC_PROVIDER_ID: "oidc",
    OIDC_PROVIDER_NAME: "OpenID Connect",
    AUTH_RATE_LIMIT_MAX: "10",
    AUTH_RATE_LIMIT_WINDOW_SECONDS: "60",
    AUTH_FORM_MIN_FILL_MS: "1500",
    SEARCH_RATE_LIMIT_MAX: "30",
    SEARCH_RATE_LIMIT_WINDOW_SECONDS: "60",
    TRUST_PROXY: "false",
    CDN_PROVIDER: "none",
    LOG_LEVEL: "info",
    SITEMAP_MAX_URLS: String(SITEMAP_MAX_URLS),
  };
  // Production warms the cache at start; development renders every request anyway.
  if (mode === "production") return { ...shared, CACHE_WARM_PAGES: "200", ...given };
  const port = given.PORT ?? shared.PORT;
  return {
    ...shared,
    APP_PUBLIC_URL: `http://localhost:${port}`,
    CACHE_WARM_PAGES: "0",
    CMS_URL: DEVELOPMENT_CMS_URL,
    // Development only: production must set its own (the schema requires it there).
    SESSION_AUTH_SECRET: "development-only-session-secret-not-for-production",
    // The CMS has the same development default (cms/src/preview/), so the admin's Preview works.
    CMS_PREVIEW_SECRET: "development-only-preview-secret",
    CMS_REST_READONLY_API_KEY: given.CMS_REST_READONLY_API_KEY ? undefined : readDevelopmentToken(source),
    ...given,
  };
}

/** Validates a whole environment; throws EnvError listing every problem at once. */
export function parseEnv(source: NodeJS.ProcessEnv): Env {
  const result = envSchema.safeParse(withDefaults(source));
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const name = issue.path.join(".") || "(environment)";
    const hint = HINTS[name] && issue.message === "is missing" ? ` (${HINTS[name]})` : "";
    const given = name in source && source[name] ? ` (got ${JSON.stringify(source[name])})` : "";
    const secret = name.includes("KEY") || name.includes("SECRET");
    return `${name}: ${issue.message}${hint}${secret ? "" : given}`;
  });
  if (problems.some((problem) => problem.startsWith("CMS_REST_READONLY_API_KEY: is missing"))) {
    if ((source.NODE_ENV ?? "development") !== "production") {
      problems.push(
        `in development the token is read from ${source.CMS_READONLY_TOKEN_FILE || DEVELOPMENT_TOKEN_FILE}, which the CMS seed writes: start the CMS first (npm run dev does)`,
      );
    }
  }
  throw new EnvError(problems);
}
