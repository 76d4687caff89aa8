import { betterAuth } from "better-auth";
import { genericOAuth } from "better-auth/plugins";

import type { Redis } from "ioredis";
import { createContext, type RouterContextProvider } from "react-router";

import { cookieNamesFor } from "../cookie-names.ts";
import type { Env } from "../env.server.ts";
import type { Log } from "../log.ts";
import { localeConfigOf } from "../locales.server.ts";
import { createCmsTwoFactor, type CmsTwoFactor } from "./cms-two-factor.server.ts";
import { createCmsUsers } from "./cms-users.server.ts";
import { cmsCredentials } from "./plugins/cms-credentials.server.ts";
import { cmsOAuth } from "./plugins/cms-oauth.server.ts";
import { cmsSession, sessionRevocation } from "./plugins/cms-session.server.ts";
import { emailChange } from "./plugins/email-change.server.ts";
import { twoFactor } from "./plugins/two-factor.server.ts";
import { startMemoryRowSweeper } from "./memory-rows.server.ts";
import { betterAuthProviders } from "./providers.ts";
import { LocalRevocations, RedisRevocations } from "./revocations.server.ts";
import { createAccountLockout, createRateLimiter, type RateLimiter } from "./rate-limit.server.ts";
import { CLIENT_IP_HEADER } from "./request-guards.server.ts";
import { SESSION_USER_FIELDS } from "./session-user.ts";

/**
 * better-auth, stateless: no database; the session and its user (with the CMS JWT) live in
 * an encrypted (JWE) cookie next to the signed session-token cookie. The CMS is the identity
 * store; the three plugins connect the two.
 */

const WEEK_SECONDS = 7 * 24 * 60 * 60;

function createAuth(env: Env, redis: Redis | undefined, cmsTwoFactor: CmsTwoFactor, log: Log) {
  const cmsUsers = createCmsUsers({
    baseUrl: env.CMS_URL,
    timeoutMs: env.CMS_FETCH_TIMEOUT_MS,
    siteSecret: env.CMS_ACCOUNT_API_SECRET,
  });
  const revocations = redis ? new RedisRevocations(redis) : new LocalRevocations();
  const twoFactorRoutes = () => cmsTwoFactor;
  // Per account, beside the per-IP budgets: wrong passwords at sign-in (keyed by address) and on the
  // account page (keyed by user id: reauth-lockout.server.ts).
  const lockout = createAccountLockout({ redis });
  // The same list the sign-in page and the CSP read (providers.ts).
  const { socialProviders, genericOAuth: oidcProviders } = betterAuthProviders(env);
  const cookies = cookieNamesFor(env.APP_PUBLIC_URL);

  return betterAuth({
    appName: "Acme",
    secret: env.SESSION_AUTH_SECRET,
    baseURL: env.APP_PUBLIC_URL,
    basePath: "/api/auth",
    trustedOrigins: [new URL(env.APP_PUBLIC_URL).origin],
    socialProviders,
    user: { additionalFields: SESSION_USER_FIELDS },
    session: {
      expiresIn: WEEK_SECONDS,
      cookieCache: { enabled: true, strategy: "jwe", maxAge: WEEK_SECONDS, refreshCache: true },
    },
    account: { storeStateStrategy: "cookie" },
    // Ours (RateLimiter) covers the JSON endpoints and the forms with one budget.
    rateLimit: { enabled: false },
    advanced: {
      // On https every cookie is `__Host-better-auth.*` (app/lib/cookie-names.ts). better-auth 1.7
      // can only put `__Secure-` in front of its prefix, so the prefix carries `__Host-` itself and
      // the attributes `__Host-` requires are set here: Secure, Path=/, and never a Domain.
      cookiePrefix: cookies.auth,
      useSecureCookies: false,
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax", secure: cookies.secure, path: "/" },
    },
    telemetry: { enabled: false },
    plugins: [
      cmsCredentials(() => cmsUsers, revocations, log, lockout, twoFactorRoutes),
      twoFactor(() => cmsUsers, twoFactorRoutes, revocations, lockout),
      cmsSession(() => cmsUsers, revocations, log),
      sessionRevocation(() => cmsUsers, revocations, log, lockout),
      emailChange(() => cmsUsers, revocations, lockout),
      cmsOAuth({
        cmsUrl: env.CMS_URL,
        secret: env.CMS_OAUTH_SYNC_SECRET,
        timeoutMs: env.CMS_FETCH_TIMEOUT_MS,
        cms: () => cmsUsers,
        revocations,
        locales: localeConfigOf(env),
        twoFactor: twoFactorRoutes,
        log,
      }),
      ...(oidcProviders.length > 0 ? [genericOAuth({ config: oidcProviders })] : []),
    ],
  });
}

export type Auth = ReturnType<typeof createAuth>;

/** The process's better-auth instance and the rate limiter its forms and endpoints share. */
export interface AuthServices {
  auth: Auth;
  rateLimiter: RateLimiter;
  /** The CMS's two-factor routes, for the pages that read the state (the forms go through auth.api). */
  cmsTwoFactor: CmsTwoFactor;
}

/** Route modules reach them through the router context (createRequestContext sets it). */
export const authContext = createContext<AuthServices>();

/**
 * Built once per process (server/app.ts createApp), from the configuration and, with REDIS_URL,
 * the process's shared Redis connection (revocations and rate limits hold across instances), and
 * the process's logger (what the CMS refused or failed to do in the background).
 */
export function createAuthServices(config: Env, redis: Redis | undefined, log: Log): AuthServices {
  const cmsTwoFactor = createCmsTwoFactor({ baseUrl: config.CMS_URL, timeoutMs: config.CMS_FETCH_TIMEOUT_MS });
  const auth = createAuth(config, redis, cmsTwoFactor, log);
  // Without a database, OAuth sign-ins leave rows in better-auth's memory adapter: swept.
  startMemoryRowSweeper(async () => (await auth.$context).adapter, log);
  const rateLimiter = createRateLimiter({
    max: config.AUTH_RATE_LIMIT_MAX,
    windowSeconds: config.AUTH_RATE_LIMIT_WINDOW_SECONDS,
    redis,
  });
  return { auth, rateLimiter, cmsTwoFactor };
}

/** This process's better-auth instance. */
export function getAuth(context: Readonly<RouterContextProvider>): Auth {
  return context.get(authContext).auth;
}

/** The rate limiter shared by the auth forms and the /api/auth endpoints. */
export function getAuthRateLimiter(context: Readonly<RouterContextProvider>): RateLimiter {
  return context.get(authContext).rateLimiter;
}

/** The CMS's two-factor routes (the status the settings page shows). */
export function getCmsTwoFactor(context: Readonly<RouterContextProvider>): CmsTwoFactor {
  return context.get(authContext).cmsTwoFactor;
}
