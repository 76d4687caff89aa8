import { randomBytes } from "node:crypto";

import type { GenericEndpointContext } from "better-auth";
import { setCookieCache, setSessionCookie } from "better-auth/cookies";

import type { CmsAuth } from "../cms-users.server.ts";
import { cookieNamesFor } from "../../cookie-names.ts";
import { KNOWN_DEVICE_MAX_AGE_SECONDS, knownDeviceValue } from "../known-device.server.ts";

/** A session not remembered lasts until the browser closes, and a day at most (as better-auth's own). */
const NOT_REMEMBERED_SECONDS = 24 * 60 * 60;

/**
 * Starts a session for a CMS user: session cookie plus the encrypted cookie holding the user and
 * JWT (and, signed in with a provider, the provider's id for the account, to re-sync with).
 * `rememberMe` (the sign-in form's box): true, cookies for the configured lifetime; false,
 * browser-session cookies (no Max-Age); unset (a session re-issued after a password change, an
 * OAuth sign-in), what the request's current session chose (better-auth's dont_remember cookie).
 */
export async function startCmsSession(
  ctx: GenericEndpointContext,
  // authAt: the provider sign-in this session rests on (the OAuth sync's answer; a re-issue passes the old one on).
  cms: CmsAuth & { authAt?: number | null },
  provider: string,
  oauthSubject?: string,
  rememberMe?: boolean,
) {
  const forgetOnClose =
    rememberMe === undefined
      ? Boolean(await ctx.getSignedCookie(ctx.context.authCookies.dontRememberToken.name, ctx.context.secret))
      : !rememberMe;
  const lifetimeSeconds = forgetOnClose ? NOT_REMEMBERED_SECONDS : ctx.context.sessionConfig.expiresIn;
  const now = new Date();
  const user = {
    id: String(cms.user.id),
    email: cms.user.email,
    name: cms.user.username,
    emailVerified: cms.user.confirmed,
    image: null,
    createdAt: now,
    updatedAt: now,
    cmsJWT: cms.jwt,
    blocked: cms.user.blocked,
    provider,
    ...(oauthSubject ? { oauthSubject } : {}),
    ...(typeof cms.authAt === "number" ? { authAt: cms.authAt } : {}),
  };
  const session = {
    id: randomBytes(16).toString("base64url"),
    token: randomBytes(32).toString("base64url"),
    userId: user.id,
    expiresAt: new Date(now.getTime() + lifetimeSeconds * 1000),
    createdAt: now,
    updatedAt: now,
    ipAddress: null,
    userAgent: ctx.headers?.get("user-agent") ?? null,
  };
  await setSessionCookie(ctx, { session, user }, forgetOnClose);
  // This browser is now known for the account: its password attempts count apart from strangers'.
  // The session cookie's attributes: on https those `__Host-` requires (auth.server.ts).
  const names = cookieNamesFor(ctx.context.baseURL);
  const known = knownDeviceValue(ctx.context.secret, ctx.headers?.get("cookie"), user.email, names);
  ctx.setCookie(names.knownDevice, known, {
    ...ctx.context.authCookies.sessionToken.attributes,
    maxAge: KNOWN_DEVICE_MAX_AGE_SECONDS,
  });
  // Not remembered, better-auth gives the encrypted cookie a 5-minute life (then refreshes it on a
  // read, or the session is lost): it gets the session's own life instead. The session still ends
  // with the browser, since the session-token cookie does (no Max-Age), and within a day.
  if (forgetOnClose) await setCookieCache(ctx, { session, user }, false);
  return user;
}
