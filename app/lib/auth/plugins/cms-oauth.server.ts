import type { BetterAuthPlugin, GenericEndpointContext } from "better-auth";
import { createAuthEndpoint, createAuthMiddleware, getOAuthState } from "better-auth/api";
import { deleteSessionCookie } from "better-auth/cookies";
import * as z from "zod";

import { syncOAuthUserWithCms, type OAuthIdentity } from "../cms-oauth-sync.server.ts";
import type { CmsTwoFactor } from "../cms-two-factor.server.ts";
import type { CmsAuth, CmsUsers } from "../cms-users.server.ts";
import type { AuthErrorCode } from "../error-codes.ts";
import { AuthError, cmsUnavailable } from "../errors.server.ts";
import { authPath } from "../paths.ts";
import type { SessionRevocations } from "../revocations.server.ts";
import { toPublicUser } from "../session-user.ts";
import { readCheckedSession } from "./cms-session.server.ts";
import { startCmsSession } from "./start-session.server.ts";
import { secondFactorEnabled, setPendingSignIn } from "./two-factor.server.ts";
import { parseLocalePath, type LocaleConfig } from "../../locale-path.ts";
import { safeRedirectPath } from "../../redirect-target.ts";
import type { Log } from "../../log.ts";

/**
 * The OAuth plugin: right after better-auth completes a GitHub, Google or OpenID Connect
 * sign-in (its callback), the CMS user is found or created and the session is replaced by
 * one carrying that user's CMS JWT. It all happens on the server during the callback: no
 * provider token or CMS JWT travels through the browser or a URL. If the CMS refuses (an
 * unverified email that matches a password account, a blocked user) the new session is
 * dropped and the visitor lands on /sign-in with the reason.
 *
 * The CMS identifies the provider account by its subject (the provider's id for it, better-auth's
 * account `accountId`), not by its email: see cms/src/plugins/accounts/server/services/oauth-sync/.
 */

export interface CmsOAuthConfig {
  cmsUrl: string;
  secret: string | undefined;
  timeoutMs: number;
  cms: () => CmsUsers;
  revocations: SessionRevocations;
  /** The site's locales: a refused sign-in goes back to the sign-in page of the one it started in. */
  locales: LocaleConfig;
  /** The CMS's two-factor routes: an account with it on is asked for the code after the provider too. */
  twoFactor?: () => CmsTwoFactor;
  /** The process's logger (failed syncs, sessions the CMS did not end). */
  log: Log;
}

const callbackParams = z.object({ id: z.string().optional(), providerId: z.string().optional() });

/** The provider id of an OAuth callback request (`/callback/:id`), or null for any other endpoint. */
function callbackProvider(ctx: { path?: string; params?: unknown }): string | null {
  if (!ctx.path || !/^\/(?:oauth2\/)?callback\//.test(ctx.path)) return null;
  const params = callbackParams.safeParse(ctx.params).data ?? {};
  const fromPath = /^\/(?:oauth2\/)?callback\/([A-Za-z0-9_-]+)$/.exec(ctx.path)?.[1];
  return params.id ?? params.providerId ?? fromPath ?? null;
}

/**
 * The provider's id for the account this callback signed in with: the `accountId` of the
 * account row better-auth just created or updated (the latest of the user's accounts with
 * this provider).
 */
async function signedInSubject(ctx: GenericEndpointContext, userId: string, provider: string): Promise<string | null> {
  const accounts = await ctx.context.internalAdapter.findAccounts(userId);
  const latest = accounts
    .filter((account) => account.providerId === provider)
    .sort((a, b) => new Date(b.updatedAt).getTime() - new Date(a.updatedAt).getTime())[0];
  return latest?.accountId || null;
}

/**
 * The sign-in page to come back to when the CMS refuses this OAuth sign-in: in the locale the
 * sign-in started from, which the sign-in form put in the flow's error URL (`/de/sign-in`, kept in
 * better-auth's OAuth state); the default locale when there is none. Only the locale is read from
 * that URL: the address is built here (authPath), so nothing a client sent can send it elsewhere.
 */
export async function signInPageOfFlow(locales: LocaleConfig): Promise<string> {
  return authPath("signIn", await localeOfFlow(locales), locales);
}

/** The locale the OAuth flow started in (see signInPageOfFlow). */
async function localeOfFlow(locales: LocaleConfig): Promise<string> {
  const state = await getOAuthState().catch(() => null);
  let locale = locales.defaultLocale;
  if (typeof state?.errorURL === "string" && URL.canParse(state.errorURL)) {
    locale = parseLocalePath(new URL(state.errorURL).pathname, locales)?.locale ?? locale;
  }
  return locale;
}

/**
 * Two-factor on for the account the provider signed in to: no session (better-auth's own is
 * dropped), the pending sign-in cookie, and the address of the code page in the flow's locale,
 * which then leads to where the flow was going (its callback URL, kept as a path of this site only).
 */
async function secondStepOfFlow(
  ctx: GenericEndpointContext,
  config: CmsOAuthConfig,
  auth: CmsAuth & { authAt?: number },
  via: { provider: string; oauthSubject: string },
): Promise<string> {
  deleteSessionCookie(ctx);
  const locale = await localeOfFlow(config.locales);
  const authAt = typeof auth.authAt === "number" ? { authAt: auth.authAt } : {};
  // Signing in with a provider is remembered (as without two-factor).
  await setPendingSignIn(ctx, auth, true, { ...via, ...authAt });
  const state = await getOAuthState().catch(() => null);
  const callback =
    typeof state?.callbackURL === "string" && URL.canParse(state.callbackURL) ? new URL(state.callbackURL) : null;
  const account = authPath("account", locale, config.locales);
  const redirectTo = safeRedirectPath(callback ? `${callback.pathname}${callback.search}` : null, account);
  const page = authPath("twoFactor", locale, config.locales);
  return `${ctx.context.baseURL.replace(/\/api\/auth$/, "")}${page}?redirectTo=${encodeURIComponent(redirectTo)}`;
}

async function syncWithCms(config: CmsOAuthConfig, identity: OAuthIdentity) {
  if (!config.secret) throw new AuthError("OAUTH_OFF");
  return syncOAuthUserWithCms(
    { baseUrl: config.cmsUrl, secret: config.secret, timeoutMs: config.timeoutMs, log: config.log },
    identity,
  );
}

/**
 * Ends the CMS session a re-sync replaced (Strapi's logout of that token). Best effort: the site
 * has revoked its own session already; a failure is logged, the new session stands.
 */
export async function endReplacedCmsSession(
  cms: Pick<CmsUsers, "endSessions">,
  oldJwt: string,
  log: Pick<Log, "warn">,
): Promise<void> {
  await cms.endSessions(oldJwt, "this").catch((error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    log.warn(`[auth] the CMS did not end the session a re-sync replaced: ${message}`);
  });
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
            let secondStep: string | null = null;
            try {
              const subject = await signedInSubject(ctx, created.user.id, provider);
              if (!subject) throw new Error(`no ${provider} account behind the new session`);
              const result = await syncWithCms(config, {
                provider,
                subject,
                email: created.user.email,
                emailVerified: Boolean(created.user.emailVerified),
                name: created.user.name,
              });
              // A provider account linked to an account with a password and two-factor on: the code comes next.
              if (config.twoFactor && (await secondFactorEnabled(config.twoFactor(), result))) {
                secondStep = await secondStepOfFlow(ctx, config, result, { provider, oauthSubject: subject });
              } else {
                await startCmsSession(ctx, result, provider, subject);
              }
            } catch (error) {
              deleteSessionCookie(ctx);
              const code: AuthErrorCode = error instanceof AuthError ? error.code : "OAUTH_FAILED";
              if (!(error instanceof AuthError)) config.log.error({ err: error }, "[auth] OAuth sync failed");
              // The sign-in page shows the table's message for the code (error-codes.ts).
              const signIn = `${ctx.context.baseURL.replace(/\/api\/auth$/, "")}${await signInPageOfFlow(config.locales)}`;
              throw ctx.redirect(`${signIn}?error=${encodeURIComponent(code)}`);
            } finally {
              // Without a database better-auth keeps this user and account in process memory, where
              // nothing needs them again (the session is the cookie). Dropped now, not only by the
              // sweep (memory-rows.server.ts): the next sign-in then gets a fresh user made from what
              // the provider says then, with one account, rather than this one found by its email.
              await ctx.context.internalAdapter.deleteUser(created.user.id).catch((error: unknown) => {
                config.log.warn(`[auth] could not drop the in-memory OAuth user: ${(error as Error).message}`);
              });
            }
            if (secondStep) throw ctx.redirect(secondStep);
          }),
        },
      ],
    },
    endpoints: {
      /**
       * Re-syncs the signed-in OAuth user with the CMS (the callback already did it once): a
       * fresh CMS JWT and session. The session is read the way every read is (revocation list,
       * then the CMS), only an existing link of its provider account counts (nothing is created
       * or linked from here), and the session it replaces is revoked (on the site and in the CMS).
       */
      syncOauthCms: createAuthEndpoint("/sync-oauth-cms", { method: "POST" }, async (ctx) => {
        const check = await readCheckedSession(ctx, config.cms(), config.revocations);
        if (check.state === "invalid") throw new AuthError("OAUTH_SESSION_REQUIRED");
        if (check.state === "unknown") {
          config.log.warn(`[auth] could not re-validate a session with the CMS: ${check.error.message}`);
          throw cmsUnavailable(check.error);
        }
        const { stored, current } = check;
        const { provider, oauthSubject } = stored.user;
        if (!provider || provider === "credentials" || !oauthSubject) throw new AuthError("OAUTH_SESSION_REQUIRED");
        const result = await syncWithCms(config, {
          provider,
          subject: oauthSubject,
          email: current.email,
          // Not the provider's word (nobody asked it now); with refresh the CMS does not use it.
          emailVerified: false,
          refresh: true,
          // The provider sign-in stays the one of the callback: a re-sync never makes it fresh (decision 0020).
          ...(typeof stored.user.authAt === "number" ? { authAt: stored.user.authAt } : {}),
        });
        if (String(result.user.id) !== String(stored.user.id)) throw new AuthError("OAUTH_LINK_GONE");
        const user = await startCmsSession(ctx, result, provider, oauthSubject);
        // The new session replaces this one: a copy of the old cookie must not outlive it, nor
        // its CMS session (whose token would still open the CMS directly: docs/security.md, finding 37).
        await config.revocations.revoke(stored.session.id, new Date(stored.session.expiresAt));
        await endReplacedCmsSession(config.cms(), check.cmsJWT, config.log);
        return ctx.json({ user: toPublicUser(user) });
      }),
    },
  } satisfies BetterAuthPlugin;
}
