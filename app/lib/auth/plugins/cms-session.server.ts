import type { BetterAuthPlugin } from "better-auth";
import { createAuthMiddleware, getSessionFromCtx } from "better-auth/api";
import { deleteSessionCookie } from "better-auth/cookies";
import { customSession } from "better-auth/plugins";

import type { CmsUsers } from "../cms-users.server.ts";
import type { SessionRevocations } from "../revocations.server.ts";
import { toPublicUser, type SessionUser } from "../session-user.ts";

/**
 * The session plugin: every session read (GET /api/auth/get-session, and auth.api.getSession
 * on the server) re-validates the stored CMS JWT with GET /api/users/me.
 * - valid: the user's data is refreshed from the CMS;
 * - 401 (invalid, expired, blocked, deleted): the session is cleared and its cookies expired;
 * - 429, 5xx, timeout: the session is kept as it is (a CMS hiccup logs nobody out), logged.
 * What it returns is what leaves the server: never the JWT, never the session token.
 */
export function cmsSession(cms: () => CmsUsers, revocations: SessionRevocations) {
  // Returning null means "no session" (the endpoint answers null); the library's type does not say so.
  return customSession(async ({ user, session }, ctx): Promise<Record<string, unknown>> => {
    const stored = user as unknown as SessionUser;
    const publicSession = { id: session.id, userId: session.userId, expiresAt: session.expiresAt };
    if (!stored.cmsJWT || (await revocations.isRevoked(session.id))) {
      deleteSessionCookie(ctx);
      return null as never;
    }
    try {
      const current = await cms().me(stored.cmsJWT);
      if (current === "invalid") {
        deleteSessionCookie(ctx);
        return null as never;
      }
      return {
        session: publicSession,
        user: toPublicUser({
          ...stored,
          email: current.email,
          name: current.username,
          blocked: current.blocked,
          emailVerified: current.confirmed,
        }),
      };
    } catch (error) {
      console.warn(`[auth] could not re-validate a session with the CMS; keeping it: ${(error as Error).message}`);
      return { session: publicSession, user: toPublicUser(stored) };
    }
  });
}

/** Signing out records the session as revoked, so a copy of its cookie is refused from then on. */
export function sessionRevocation(revocations: SessionRevocations) {
  return {
    id: "session-revocation",
    hooks: {
      before: [
        {
          matcher: (ctx) => ctx.path === "/sign-out",
          handler: createAuthMiddleware(async (ctx) => {
            const current = await getSessionFromCtx(ctx);
            if (current) await revocations.revoke(current.session.id, new Date(current.session.expiresAt));
          }),
        },
      ],
    },
  } satisfies BetterAuthPlugin;
}
