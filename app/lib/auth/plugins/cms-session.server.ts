import type { BetterAuthPlugin, GenericEndpointContext, Session, User } from "better-auth";
import { createAuthEndpoint, createAuthMiddleware, getSessionFromCtx } from "better-auth/api";
import { deleteSessionCookie } from "better-auth/cookies";
import { customSession } from "better-auth/plugins";

import type { CmsUser, CmsUsers } from "../cms-users.server.ts";
import { AuthError, cmsUnavailable } from "../errors.server.ts";
import { schemaBody } from "../input.server.ts";
import { changeUsernameSchema, deleteAccountSchema } from "../schemas.ts";
import type { AccountLockout } from "../rate-limit.server.ts";
import { withPasswordLockout } from "../reauth-lockout.server.ts";
import type { SessionRevocations } from "../revocations.server.ts";
import { SESSION_USER_FIELDS, toPublicUser, type PublicSessionUser, type StoredUserFields } from "../session-user.ts";
import type { Log } from "../../log.ts";

/** A session as the encrypted cookie holds it: better-auth's session, and its user with ours (CMS JWT, ...). */
export interface StoredSession {
  session: Session;
  user: User & StoredUserFields;
}

/** What a session read answers (GET /api/auth/get-session, auth.api.getSession): never the JWT or the token. */
export interface PublicSession {
  session: { id: string; userId: string; expiresAt: Date };
  user: PublicSessionUser;
}

/**
 * What a stored session (the encrypted cookie) is worth now:
 * - "invalid": no CMS JWT, signed out (revoked), the CMS answers 401 for the JWT (expired,
 *   blocked, deleted, ended by a password change or a sign-out) or 200 with `blocked: true`:
 *   its cookies are expired on this response;
 * - "valid": the CMS vouches for the user, `current` is the user as the CMS has it now;
 * - "unknown": the CMS did not answer (429, 5xx, timeout); the session is kept as it is.
 */
export type SessionCheck =
  | { state: "invalid" }
  | { state: "valid"; stored: StoredSession; cmsJWT: string; current: CmsUser }
  | { state: "unknown"; stored: StoredSession; cmsJWT: string; error: Error };

export async function checkStoredSession(
  ctx: GenericEndpointContext,
  stored: StoredSession,
  cms: CmsUsers,
  revocations: SessionRevocations,
): Promise<SessionCheck> {
  const cmsJWT = stored.user.cmsJWT;
  if (!cmsJWT || (await revocations.isRevoked(stored.session.id))) {
    deleteSessionCookie(ctx);
    return { state: "invalid" };
  }
  try {
    const current = await cms.me(cmsJWT);
    // Strapi answers 401 for a blocked user today; a 200 that says blocked counts the same.
    if (current === "invalid" || current.blocked) {
      deleteSessionCookie(ctx);
      return { state: "invalid" };
    }
    return { state: "valid", stored, cmsJWT, current };
  } catch (error) {
    return { state: "unknown", stored, cmsJWT, error: error instanceof Error ? error : new Error(String(error)) };
  }
}

/**
 * The session of a request, checked the way every session read is (revocation list, then the
 * CMS). better-auth's own getSessionFromCtx only decrypts the cookie: an endpoint that acts on
 * the session (changes the password, issues a new session from it) must read it through here.
 */
export async function readCheckedSession(
  ctx: GenericEndpointContext,
  cms: CmsUsers,
  revocations: SessionRevocations,
): Promise<SessionCheck> {
  // The cookie was written by startCmsSession (start-session.server.ts) with these user fields.
  const session = await getSessionFromCtx<StoredUserFields>(ctx);
  if (!session) return { state: "invalid" };
  return checkStoredSession(ctx, session, cms, revocations);
}

/**
 * "No session", from a customSession callback. better-auth answers whatever the callback returns,
 * so null makes get-session answer null (as it does without a cookie) and auth.api.getSession
 * return null; but the callback's type (`Returns extends Record<string, any>`) leaves null out,
 * while the endpoint's own type is `Returns | null`. The auth area's one cast, kept here.
 */
function noSession(): PublicSession {
  return null as unknown as PublicSession;
}

/**
 * The session plugin: every session read (GET /api/auth/get-session, and auth.api.getSession
 * on the server) re-validates the stored CMS JWT with GET /api/users/me.
 * - valid: the user's data is refreshed from the CMS;
 * - 401 (invalid, expired, blocked, deleted): the session is cleared and its cookies expired;
 * - 429, 5xx, timeout: the session is kept as it is (a CMS hiccup logs nobody out), logged.
 * What it returns is what leaves the server: never the JWT, never the session token.
 */
export function cmsSession(cms: () => CmsUsers, revocations: SessionRevocations, log: Pick<Log, "warn">) {
  return customSession(
    async (stored, ctx): Promise<PublicSession> => {
      const { session } = stored;
      const publicSession = { id: session.id, userId: session.userId, expiresAt: session.expiresAt };
      const check = await checkStoredSession(ctx, stored, cms(), revocations);
      if (check.state === "invalid") return noSession();
      if (check.state === "unknown") {
        log.warn(`[auth] could not re-validate a session with the CMS; keeping it: ${check.error.message}`);
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
    },
    // Only for the types: the user fields the callback's `user` carries (as in auth.server.ts).
    { user: { additionalFields: SESSION_USER_FIELDS } },
  );
}

/**
 * Signing out records the session as revoked here (Redis, or this process's memory), so a copy
 * of its cookie is refused from then on; and in the CMS (Strapi's logout ends the JWT's session,
 * stored in the CMS's database), so that the refusal survives a restart of the site without Redis,
 * on every instance.
 * The CMS call is best effort: unreachable, the local record still signs the session out.
 *
 * POST /sign-out-everywhere-cms ends every session of the user, this one included, on every
 * instance: the CMS ends every session of the user (Strapi's logout, scope all) and refuses their JWTs. It
 * needs the CMS: if the CMS cannot confirm, nothing is ended and the caller is told.
 */
export function sessionRevocation(
  cms: () => CmsUsers,
  revocations: SessionRevocations,
  log: Pick<Log, "warn">,
  lockout?: AccountLockout,
) {
  return {
    id: "session-revocation",
    endpoints: {
      signOutEverywhereCms: createAuthEndpoint("/sign-out-everywhere-cms", { method: "POST" }, async (ctx) => {
        const check = await readCheckedSession(ctx, cms(), revocations);
        if (check.state === "invalid") throw new AuthError("UNAUTHORIZED");
        if (check.state === "unknown") throw cmsUnavailable(check.error);
        const { stored, cmsJWT } = check;
        await cms().endSessions(cmsJWT, "all");
        await revocations.revoke(stored.session.id, new Date(stored.session.expiresAt));
        deleteSessionCookie(ctx);
        return ctx.json({ ok: true });
      }),

      // Deletes the CMS user, after re-authentication (the CMS checks it); this session ends with it.
      deleteAccountCms: createAuthEndpoint("/delete-account-cms", schemaBody(deleteAccountSchema), async (ctx) => {
        const check = await readCheckedSession(ctx, cms(), revocations);
        if (check.state === "invalid") throw new AuthError("UNAUTHORIZED");
        if (check.state === "unknown") throw cmsUnavailable(check.error);
        const password = ctx.body.currentPassword || undefined;
        // Wrong passwords count per account too (reauth-lockout.server.ts).
        await withPasswordLockout(lockout, check.stored.user.id, password, () =>
          cms().deleteAccount(check.cmsJWT, password),
        );
        await revocations.revoke(check.stored.session.id, new Date(check.stored.session.expiresAt));
        deleteSessionCookie(ctx);
        return ctx.json({ ok: true });
      }),

      // Not a privilege change (the session keeps its rights): the next session read shows the new name.
      changeUsernameCms: createAuthEndpoint("/change-username-cms", schemaBody(changeUsernameSchema), async (ctx) => {
        const check = await readCheckedSession(ctx, cms(), revocations);
        if (check.state === "invalid") throw new AuthError("UNAUTHORIZED");
        if (check.state === "unknown") throw cmsUnavailable(check.error);
        const username = await cms().changeUsername(check.cmsJWT, ctx.body.username);
        return ctx.json({ ok: true, username });
      }),
    },
    hooks: {
      before: [
        {
          matcher: (ctx) => ctx.path === "/sign-out",
          handler: createAuthMiddleware(async (ctx) => {
            const current = await getSessionFromCtx<StoredUserFields>(ctx);
            if (!current) return;
            await revocations.revoke(current.session.id, new Date(current.session.expiresAt));
            const cmsJWT = current.user.cmsJWT;
            if (!cmsJWT) return;
            await cms()
              .endSessions(cmsJWT, "this")
              .catch((error: unknown) => {
                const message = error instanceof Error ? error.message : String(error);
                log.warn(`[auth] the CMS did not record a sign-out (signed out on the site only): ${message}`);
              });
          }),
        },
      ],
    },
  } satisfies BetterAuthPlugin;
}
