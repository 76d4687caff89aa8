import { randomBytes } from "node:crypto";

import type { GenericEndpointContext } from "better-auth";
import { setSessionCookie } from "better-auth/cookies";

import type { CmsAuth } from "../cms-users.server.ts";

/**
 * Starts a session for a CMS user: session cookie plus the encrypted cookie holding the user and
 * JWT (and, signed in with a provider, the provider's id for the account, to re-sync with).
 */
export async function startCmsSession(
  ctx: GenericEndpointContext,
  cms: CmsAuth,
  provider: string,
  oauthSubject?: string,
) {
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
  };
  const session = {
    id: randomBytes(16).toString("base64url"),
    token: randomBytes(32).toString("base64url"),
    userId: user.id,
    expiresAt: new Date(now.getTime() + ctx.context.sessionConfig.expiresIn * 1000),
    createdAt: now,
    updatedAt: now,
    ipAddress: null,
    userAgent: ctx.headers?.get("user-agent") ?? null,
  };
  await setSessionCookie(ctx, { session, user });
  return user;
}
