import type { BetterAuthPlugin } from "better-auth";
import { APIError, createAuthEndpoint, createAuthMiddleware, getSessionFromCtx } from "better-auth/api";
import { deleteSessionCookie } from "better-auth/cookies";

import { syncOAuthUserWithCms, type OAuthIdentity } from "../cms-oauth-sync.server.ts";
import { AuthError, asApiErrors } from "../errors.server.ts";
import { toPublicUser } from "../session-user.ts";
import { startCmsSession } from "./start-session.server.ts";

/**
 * The OAuth plugin: right after better-auth completes a GitHub, Google or OpenID Connect
 * sign-in (its callback), the CMS user is found or created and the session is replaced by
 * one carrying that user's CMS JWT. It all happens on the server during the callback: no
 * provider token or CMS JWT travels through the browser or a URL. If the CMS refuses (an
 * unverified email that matches a password account, a blocked user) the new session is
 * dropped and the visitor lands on /sign-in with the reason.
 */

export interface CmsOAuthConfig {
  cmsUrl: string;
  secret: string | undefined;
  timeoutMs: number;
}

type HookContext = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];

/** The provider id of an OAuth callback request (`/callback/:id`), or null for any other endpoint. */
function callbackProvider(ctx: { path?: string; params?: unknown }): string | null {
  if (!ctx.path || !/^\/(?:oauth2\/)?callback\//.test(ctx.path)) return null;
  const params = (ctx.params ?? {}) as { id?: string; providerId?: string };
  const fromPath = /^\/(?:oauth2\/)?callback\/([A-Za-z0-9_-]+)$/.exec(ctx.path)?.[1];
  return params.id ?? params.providerId ?? fromPath ?? null;
}

async function syncSession(ctx: HookContext, config: CmsOAuthConfig, identity: OAuthIdentity) {
  if (!config.secret) throw new AuthError(503, "OAUTH_OFF", "Signing in with this provider is not configured.");
  const result = await syncOAuthUserWithCms(
    { baseUrl: config.cmsUrl, secret: config.secret, timeoutMs: config.timeoutMs },
    identity,
  );
  return startCmsSession(ctx as never, result, identity.provider);
}

export function cmsOAuth(config: CmsOAuthConfig) {
  return {
    id: "cms-oauth",
    hooks: {
      after: [
        {
          matcher: (ctx) => callbackProvider(ctx) !== null,
          handler: createAuthMiddleware(async (ctx) => {
            const created = ctx.context.newSession;
            const provider = callbackProvider(ctx);
            if (!created || !provider) return;
            try {
              await syncSession(ctx, config, {
                provider,
                email: created.user.email,
                emailVerified: Boolean(created.user.emailVerified),
                name: created.user.name,
              });
            } catch (error) {
              deleteSessionCookie(ctx);
              const code = error instanceof AuthError ? error.code : "OAUTH_FAILED";
              if (!(error instanceof AuthError)) console.error("[auth] OAuth sync failed", error);
              throw ctx.redirect(`${ctx.context.baseURL.replace(/\/api\/auth$/, "")}/sign-in?error=${encodeURIComponent(code)}`);
            }
          }),
        },
      ],
    },
    endpoints: {
      /** Re-syncs the signed-in OAuth user with the CMS (the callback already did it once). */
      syncOauthCms: createAuthEndpoint("/sync-oauth-cms", { method: "POST" }, async (ctx) => {
        const session = await getSessionFromCtx(ctx);
        const user = session?.user as (Record<string, unknown> & { provider?: string }) | undefined;
        if (!session || !user?.provider || user.provider === "credentials") {
          throw new APIError(401, { code: "UNAUTHORIZED", message: "Sign in with a provider first." });
        }
        const synced = await asApiErrors(() =>
          syncSession(ctx as never, config, {
            provider: user.provider!,
            email: session.user.email,
            emailVerified: Boolean(session.user.emailVerified),
            name: session.user.name,
          }),
        );
        return ctx.json({ user: toPublicUser(synced) });
      }),
    },
  } satisfies BetterAuthPlugin;
}
