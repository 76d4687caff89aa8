import type { BetterAuthPlugin, GenericEndpointContext } from "better-auth";
import { createAuthEndpoint } from "better-auth/api";

import type { CmsAuth, CmsUsers } from "../cms-users.server.ts";
import type { CmsTwoFactor } from "../cms-two-factor.server.ts";
import { AuthError, cmsUnavailable } from "../errors.server.ts";
import { schemaBody } from "../input.server.ts";
import type { AccountLockout } from "../rate-limit.server.ts";
import { withPasswordLockout } from "../reauth-lockout.server.ts";
import type { SessionRevocations } from "../revocations.server.ts";
import { toPublicUser } from "../session-user.ts";
import {
  openPendingSignIn,
  sealPendingSignIn,
  type SignedInVia,
  twoFactorCookieAttributes,
  twoFactorCookieName,
  twoFactorCookieOf,
  TWO_FACTOR_COOKIE_SECONDS,
} from "../two-factor-cookies.server.ts";
import { twoFactorCodeSchema, twoFactorDisableSchema, twoFactorSetupSchema } from "../two-factor-schemas.ts";
import { readCheckedSession } from "./cms-session.server.ts";
import { startCmsSession } from "./start-session.server.ts";

/**
 * Two-factor authentication (TOTP, in the CMS: docs/cms-contract.md "Account two-factor"), the
 * site's half (docs/architecture.md, "Two-factor sign-in"):
 *
 * - **the sign-in's second step**: the password step (`/sign-in-cms`, and `/reset-password-cms`)
 *   of an account with two-factor on starts no session, nor does a provider's sign-in (OAuth
 *   callback, plugins/cms-oauth.server.ts) into such an account. It seals what finishing needs into the
 *   pending sign-in cookie (two-factor-cookies.server.ts) and answers 403 TWO_FACTOR_REQUIRED;
 *   `/two-factor-cms` `{ code }` has the CMS check the code, then starts the session exactly as
 *   the password step would have (startCmsSession), and the cookie can never be used again;
 * - **the settings** (signed in, session re-validated first): set-up (password → secret and
 *   otpauth URI, shown once), enable (first code → ten recovery codes, and a new session: the
 *   CMS ended every earlier one, ASVS 7.2.4), disable (password and code), new recovery codes.
 *
 * The form pages (routes/sign-in/two-factor.tsx, routes/account/two-factor.tsx) call these same
 * endpoints through auth.api.
 */

const SECOND_STEP_PATH = "/two-factor-cms";

const isSecure = (ctx: GenericEndpointContext) => ctx.context.baseURL.startsWith("https:");

/**
 * The first factor was right (the password, or a provider's sign-in linked to an account with a
 * password), and the account has two-factor on: no session. The pending sign-in goes into its
 * sealed cookie (the JSON second step and the form's page both read it), signed in with a
 * provider when `via` says so.
 */
export async function setPendingSignIn(
  ctx: GenericEndpointContext,
  auth: CmsAuth,
  rememberMe: boolean,
  via?: SignedInVia,
): Promise<void> {
  const sealed = await sealPendingSignIn(ctx.context.secret, auth, rememberMe, via);
  ctx.setCookie(twoFactorCookieName("pending", isSecure(ctx)), sealed, {
    ...twoFactorCookieAttributes(isSecure(ctx)),
    maxAge: TWO_FACTOR_COOKIE_SECONDS,
  });
}

/** The password was right, and the account has two-factor on: the pending sign-in, and 403 TWO_FACTOR_REQUIRED. */
export async function requireSecondFactor(
  ctx: GenericEndpointContext,
  auth: CmsAuth,
  rememberMe: boolean,
): Promise<never> {
  await setPendingSignIn(ctx, auth, rememberMe);
  throw new AuthError("TWO_FACTOR_REQUIRED");
}

/** Whether the CMS user of a fresh password step must give a second factor. Unsure (CMS down): throws. */
export async function secondFactorEnabled(twoFactor: CmsTwoFactor, auth: CmsAuth): Promise<boolean> {
  return (await twoFactor.status(auth.jwt)).enabled;
}

/**
 * Why `Set-Cookie` headers that an endpoint set before it threw reach a caller through auth.api:
 * better-auth attaches them to the thrown error under this (registered) symbol, as it does for
 * its own answers (better-call's `kAPIErrorHeaderSymbol`).
 */
const ERROR_HEADERS = Symbol.for("better-call:api-error-headers");

/** The Set-Cookie headers an endpoint set before it threw this error. */
export function setCookiesOfError(error: unknown): string[] {
  const headers = (error as { [ERROR_HEADERS]?: unknown } | null)?.[ERROR_HEADERS];
  return headers instanceof Headers ? headers.getSetCookie() : [];
}

export function twoFactor(
  cms: () => CmsUsers,
  cmsTwoFactor: () => CmsTwoFactor,
  revocations: SessionRevocations,
  lockout?: AccountLockout,
) {
  /** The request's session, re-validated (as every session read is); refused when there is none. */
  async function checkedSession(ctx: GenericEndpointContext) {
    const check = await readCheckedSession(ctx, cms(), revocations);
    if (check.state === "invalid") throw new AuthError("UNAUTHORIZED");
    if (check.state === "unknown") throw cmsUnavailable(check.error);
    return check;
  }

  /**
   * A new session for this browser in place of the current one (a privilege change): the old
   * one is revoked here too, and the CMS's new JWT (when the change ended the old one) is used.
   */
  async function renewSession(
    ctx: GenericEndpointContext,
    check: Awaited<ReturnType<typeof checkedSession>>,
    jwt?: string,
  ) {
    const { stored, cmsJWT, current } = check;
    await revocations.revoke(stored.session.id, new Date(stored.session.expiresAt));
    return startCmsSession(
      ctx,
      { jwt: jwt ?? cmsJWT, user: current, authAt: stored.user.authAt },
      stored.user.provider ?? "credentials",
      stored.user.oauthSubject ?? undefined,
    );
  }

  const pendingKey = (id: string) => `two-factor-pending:${id}`;

  return {
    id: "two-factor",
    endpoints: {
      // The sign-in's second step: the pending sign-in cookie and a code.
      twoFactorCms: createAuthEndpoint(SECOND_STEP_PATH, schemaBody(twoFactorCodeSchema), async (ctx) => {
        const secure = isSecure(ctx);
        const sealed = twoFactorCookieOf(ctx.headers?.get("cookie") ?? null, "pending", secure);
        const pending = await openPendingSignIn(ctx.context.secret, sealed);
        const expire = () =>
          ctx.setCookie(twoFactorCookieName("pending", secure), "", {
            ...twoFactorCookieAttributes(secure),
            maxAge: 0,
          });
        if (!pending || (await revocations.isRevoked(pendingKey(pending.id)))) {
          expire();
          throw new AuthError("TWO_FACTOR_EXPIRED");
        }
        // A wrong code keeps the cookie (the person types again); the CMS counts the failures.
        const verified = await cmsTwoFactor().verify(pending.auth.jwt, ctx.body.code);
        await revocations.revoke(pendingKey(pending.id), pending.expiresAt);
        expire();
        // As the first step would have: with the password, or with the provider (and its subject).
        const { via } = pending;
        const user = await startCmsSession(
          ctx,
          { ...pending.auth, authAt: via?.authAt },
          via?.provider ?? "credentials",
          via?.oauthSubject,
          pending.rememberMe,
        );
        return ctx.json({ user: toPublicUser(user), recoveryCodesLeft: verified.recoveryCodesLeft });
      }),

      twoFactorSetupCms: createAuthEndpoint("/two-factor-setup-cms", schemaBody(twoFactorSetupSchema), async (ctx) => {
        const { cmsJWT, stored } = await checkedSession(ctx);
        // Wrong passwords count per account too, as on the account page's other forms (reauth-lockout.server.ts).
        const { currentPassword } = ctx.body;
        const { secret, uri } = await withPasswordLockout(lockout, stored.user.id, currentPassword, () =>
          cmsTwoFactor().setup(cmsJWT, currentPassword),
        );
        return ctx.json({ secret, uri });
      }),

      twoFactorEnableCms: createAuthEndpoint("/two-factor-enable-cms", schemaBody(twoFactorCodeSchema), async (ctx) => {
        const check = await checkedSession(ctx);
        const { recoveryCodes, jwt } = await cmsTwoFactor().enable(check.cmsJWT, ctx.body.code);
        const user = await renewSession(ctx, check, jwt);
        return ctx.json({ recoveryCodes, user: toPublicUser(user) });
      }),

      twoFactorDisableCms: createAuthEndpoint(
        "/two-factor-disable-cms",
        schemaBody(twoFactorDisableSchema),
        async (ctx) => {
          const { cmsJWT, stored } = await checkedSession(ctx);
          const { currentPassword, code } = ctx.body;
          await withPasswordLockout(lockout, stored.user.id, currentPassword, () =>
            cmsTwoFactor().disable(cmsJWT, currentPassword, code),
          );
          return ctx.json({ ok: true });
        },
      ),

      twoFactorRecoveryCodesCms: createAuthEndpoint(
        "/two-factor-recovery-codes-cms",
        schemaBody(twoFactorCodeSchema),
        async (ctx) => {
          const check = await checkedSession(ctx);
          const { recoveryCodes, jwt } = await cmsTwoFactor().newRecoveryCodes(check.cmsJWT, ctx.body.code);
          // Should the CMS have ended the sessions with it, this browser goes on in a new one.
          if (jwt) await renewSession(ctx, check, jwt);
          return ctx.json({ recoveryCodes });
        },
      ),
    },
  } satisfies BetterAuthPlugin;
}
