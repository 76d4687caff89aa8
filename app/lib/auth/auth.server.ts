import { betterAuth } from "better-auth";
import { genericOAuth } from "better-auth/plugins";

import { getEnv, type Env } from "../env.server.ts";
import { createCmsUsers } from "./cms-users.server.ts";
import { cmsCredentials } from "./plugins/cms-credentials.server.ts";
import { cmsOAuth } from "./plugins/cms-oauth.server.ts";
import { cmsSession, sessionRevocation } from "./plugins/cms-session.server.ts";
import { startMemoryRowSweeper, type RowAdapter } from "./memory-rows.server.ts";
import { LocalRevocations, RedisRevocations } from "./revocations.server.ts";
import { connectRedis } from "../redis.server.ts";
import { createRateLimiter, type RateLimiter } from "./rate-limit.server.ts";
import { CLIENT_IP_HEADER } from "./request-guards.server.ts";

/**
 * better-auth, stateless: no database; the session and its user (with the CMS JWT) live in
 * an encrypted (JWE) cookie next to the signed session-token cookie. The CMS is the identity
 * store; the three plugins connect the two.
 */

const WEEK_SECONDS = 7 * 24 * 60 * 60;

function createAuth(env: Env) {
  const cmsUsers = createCmsUsers({ baseUrl: env.CMS_URL, timeoutMs: env.CMS_FETCH_TIMEOUT_MS });
  const revocations = env.REDIS_URL ? new RedisRevocations(connectRedis(env.REDIS_URL, "sessions")) : new LocalRevocations();
  const socialProviders: Parameters<typeof betterAuth>[0]["socialProviders"] = {};
  if (env.GITHUB_CLIENT_ID && env.GITHUB_CLIENT_SECRET) {
    socialProviders.github = { clientId: env.GITHUB_CLIENT_ID, clientSecret: env.GITHUB_CLIENT_SECRET, scope: ["user:email"] };
  }
  if (env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET) {
    socialProviders.google = { clientId: env.GOOGLE_CLIENT_ID, clientSecret: env.GOOGLE_CLIENT_SECRET };
  }
  const oidc =
    env.OIDC_ISSUER && env.OIDC_CLIENT_ID && env.OIDC_CLIENT_SECRET
      ? [
          genericOAuth({
            config: [
              {
                providerId: env.OIDC_PROVIDER_ID,
                discoveryUrl: `${env.OIDC_ISSUER}/.well-known/openid-configuration`,
                clientId: env.OIDC_CLIENT_ID,
                clientSecret: env.OIDC_CLIENT_SECRET,
                scopes: ["openid", "email", "profile"],
                pkce: true,
              },
            ],
          }),
        ]
      : [];

  return betterAuth({
    appName: "Acme",
    secret: env.SESSION_AUTH_SECRET,
    baseURL: env.APP_PUBLIC_URL,
    basePath: "/api/auth",
    trustedOrigins: [new URL(env.APP_PUBLIC_URL).origin],
    socialProviders,
    user: {
      additionalFields: {
        cmsJWT: { type: "string", required: false, input: false },
        blocked: { type: "boolean", required: false, input: false },
        provider: { type: "string", required: false, input: false },
        oauthSubject: { type: "string", required: false, input: false },
      },
    },
    session: {
      expiresIn: WEEK_SECONDS,
      cookieCache: { enabled: true, strategy: "jwe", maxAge: WEEK_SECONDS, refreshCache: true },
    },
    account: { storeStateStrategy: "cookie" },
    // Ours (RateLimiter) covers the JSON endpoints and the forms with one budget.
    rateLimit: { enabled: false },
    advanced: {
      useSecureCookies: env.APP_PUBLIC_URL.startsWith("https:"),
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax" },
    },
    telemetry: { enabled: false },
    plugins: [
      cmsCredentials(() => cmsUsers),
      cmsSession(() => cmsUsers, revocations),
      sessionRevocation(revocations),
      cmsOAuth({
        cmsUrl: env.CMS_URL,
        secret: env.CMS_OAUTH_SYNC_SECRET,
        timeoutMs: env.CMS_FETCH_TIMEOUT_MS,
        cms: () => cmsUsers,
        revocations,
      }),
      ...oidc,
    ],
  });
}

export type Auth = ReturnType<typeof createAuth>;

let auth: Auth | undefined;
let limiter: RateLimiter | undefined;

/** This process's better-auth instance. */
export function getAuth(): Auth {
  if (!auth) {
    const created = createAuth(getEnv());
    // Without a database, OAuth sign-ins leave rows in better-auth's memory adapter: swept.
    startMemoryRowSweeper(async () => (await created.$context).adapter as unknown as RowAdapter);
    auth = created;
  }
  return auth;
}

/** The rate limiter shared by the auth forms and the /api/auth endpoints. */
export function getAuthRateLimiter(): RateLimiter {
  const env = getEnv();
  limiter ??= createRateLimiter({
    max: env.AUTH_RATE_LIMIT_MAX,
    windowSeconds: env.AUTH_RATE_LIMIT_WINDOW_SECONDS,
    redis: env.REDIS_URL ? connectRedis(env.REDIS_URL, "rate limit") : undefined,
  });
  return limiter;
}

/** Which sign-in buttons to show: configured providers only. */
export function oauthProviders(env: Env = getEnv()): Array<{ id: string; name: string; origin: string }> {
  if (!env.CMS_OAUTH_SYNC_SECRET) return [];
  return [
    ...(env.GITHUB_CLIENT_ID && env.GITHUB_CLIENT_SECRET ? [{ id: "github", name: "GitHub", origin: "https://github.com" }] : []),
    ...(env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET
      ? [{ id: "google", name: "Google", origin: "https://accounts.google.com" }]
      : []),
    ...(env.OIDC_ISSUER ? [{ id: env.OIDC_PROVIDER_ID, name: env.OIDC_PROVIDER_NAME, origin: new URL(env.OIDC_ISSUER).origin }] : []),
  ];
}
