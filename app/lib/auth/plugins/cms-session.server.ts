import type { BetterAuthPlugin } from "better-auth";
import { createAuthMiddleware, getSessionFromCtx } from "better-auth/api";
import { deleteSessionCookie } from "better-auth/cookies";
import { customSession } from "better-auth/plugins";

import type { CmsUser, CmsUsers } from "../cms-users.server.ts";
import type { SessionRevocations } from "../revocations.server.ts";
import { toPublicUser, type SessionUser } from "../session-user.ts";

type CookieContext = Parameters<typeof deleteSessionCookie>[0];

interface StoredSession {
  session: { id: string; userId: string; expiresAt: Date };
  user: SessionUser;
}

/**
 * What a stored session (the encrypted cookie) is worth now:
 * - "invalid": no CMS JWT, signed out (revoked), or the CMS answers 401 for the JWT (expired,
 *   blocked, deleted): its cookies are expired on this response;
 * - "valid": the CMS vouches for the user, `current` is the user as the CMS has it now;
 * - "unknown": the CMS did not answer (429, 5xx, timeout); the session is kept as it is.
 */
export type SessionCheck =
  | { state: "invalid" }
  | { state: "valid"; stored: StoredSession; current: CmsUser }
  | { state: "unknown"; stored: StoredSession; error: Error };

export async function checkStoredSession(
  ctx: CookieContext,
  stored: StoredSession,
  cms: CmsUsers,
  revocations: SessionRevocations,
): Promise<SessionCheck> {
  if (!stored.user.cmsJWT || (await revocations.isRevoked(stored.session.id))) {
    deleteSessionCookie(ctx);
    return { state: "invalid" };
  }
  try {
    const current = await cms.me(stored.user.cmsJWT);
    if (current === "invalid") {
      deleteSessionCookie(ctx);
      return { state: "invalid" };
    }
    return { state: "valid", stored, current };
  } catch (error) {
    return { state: "unknown", stored, error: error as Error };
  }
}

/**
 * The session of a request, checked the way every session read is (revocation list, then the
 * CMS). better-auth's own getSessionFromCtx only decrypts the cookie: an endpoint that acts on
 * the session (issues a new one from it) must read it through here.
 */
export async function readCheckedSession(ctx: CookieContext, cms: CmsUsers, revocations: SessionRevocations): Promise<SessionCheck> {
  const session = await getSessionFromCtx(ctx as never);
  if (!session) return { state: "invalid" };
  return checkStoredSession(ctx, session as unknown as StoredSession, cms, revocations);
}

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
    const stored = { user: user as unknown as SessionUser, session };
    const publicSession = { id: session.id, userId: session.userId, expiresAt: session.expiresAt };
    const check = await checkStoredSession(ctx, stored, cms(), revocations);
    if (check.state === "invalid") return null as never;
    if (check.state === "unknown") {
      console.warn(`[auth] could not re-validate a session with the CMS; keeping it: ${check.error.message}`);
      return { session: publicSession, user: toPublicUser(stored.user) };
    }
    const { current } = check;
    return {
      session: publicSession,
      user: toPublicUser({
        ...stored.user,
        email: current.email,
        name: current.username,
        blocked: current.blocked,
        emailVerified: current.confirmed,
      }),
    };
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
