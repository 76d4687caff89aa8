import type { BetterAuthPlugin } from "better-auth";
import { createAuthEndpoint } from "better-auth/api";

import { cookieNamesFor } from "../../cookie-names.ts";
import { confirmEmailSchema, resendConfirmationSchema } from "../confirm-email-schemas.ts";
import type { CmsUsers } from "../cms-users.server.ts";
import { isKnownDevice, lockoutKeyOf } from "../known-device.server.ts";
import { AuthError, cmsUnavailable } from "../errors.server.ts";
import { schemaBody } from "../input.server.ts";
import type { AccountLockout } from "../rate-limit.server.ts";
import { withPasswordLockout } from "../reauth-lockout.server.ts";
import type { SessionRevocations } from "../revocations.server.ts";
import { inBackground, REGISTER_ANSWER_MS, settleAfter } from "../same-answer.server.ts";
import {
  forgotPasswordSchema,
  registerSchema,
  resetPasswordSchema,
  signInSchema,
  updatePasswordSchema,
} from "../schemas.ts";
import { toPublicUser } from "../session-user.ts";
import { readCheckedSession } from "./cms-session.server.ts";
import { startCmsSession } from "./start-session.server.ts";
import type { CmsTwoFactor } from "../cms-two-factor.server.ts";
import { requireSecondFactor, secondFactorEnabled } from "./two-factor.server.ts";
import type { Log } from "../../log.ts";

/**
 * The credential plugin: sign-in, registration and the password flows, done against the
 * CMS on the server. The form actions (app/routes/*) call these same endpoints through
 * auth.api, so there is one implementation of each flow. Each body is parsed with its schema
 * (schemas.ts) before the handler runs; every refusal is an AuthError (error-codes.ts).
 */

/** What registration answers, whether the address was new (the account now exists) or already registered. */
const REGISTER_MESSAGE =
  "Thank you. If this email address was not registered yet, your account is ready: sign in with it. If it was, sign in with your password, or reset it.";
/** The same, when a new account must first confirm its address (users-permissions `email_confirmation`). */
const REGISTER_CONFIRM_MESSAGE =
  "Thank you. Check your inbox: if this email address was not registered yet, we have sent it a link to confirm " +
  "it. If it was, sign in with your password, or reset it.";
const RESEND_CONFIRMATION_MESSAGE =
  "If an account with this address is waiting for its confirmation, we have sent it a new link.";
const FORGOT_PASSWORD_MESSAGE = "If an account exists for this address, we have sent it a link to reset the password.";

/**
 * Registers, telling nobody whether the address was new or taken. What Strapi refuses before
 * it looks the address up (registration closed, invalid input, its rate limit) is shown; an
 * unreachable or failing CMS is only logged, as a failed write happens for new addresses only.
 */
async function registerQuietly(
  users: CmsUsers,
  email: string,
  password: string,
  log: Pick<Log, "warn">,
): Promise<void> {
  try {
    await users.register(email, password);
  } catch (error) {
    if (error instanceof AuthError && error.code !== "CMS_UNAVAILABLE") throw error;
    log.warn(`[auth] registration failed in the CMS: ${error instanceof Error ? error.message : String(error)}`);
  }
}

const isWrongPassword = (error: unknown) => error instanceof AuthError && error.code === "INVALID_CREDENTIALS";

export function cmsCredentials(
  cms: () => CmsUsers,
  revocations: SessionRevocations,
  log: Pick<Log, "warn">,
  lockout?: AccountLockout,
  twoFactor?: () => CmsTwoFactor,
) {
  return {
    id: "cms-credentials",
    endpoints: {
      signInCms: createAuthEndpoint("/sign-in-cms", schemaBody(signInSchema), async (ctx) => {
        // Per address, beside the per-IP budget: each guess takes one of the address's attempts
        // before the CMS is asked, so a locked address, or one whose attempts are all in flight, is
        // refused without asking it. A browser that signed in to it before counts apart, so
        // strangers cannot lock its owner out.
        const { email, password } = ctx.body;
        const cookies = ctx.headers?.get("cookie");
        const known = isKnownDevice(ctx.context.secret, cookies, email, cookieNamesFor(ctx.context.baseURL));
        const lockoutKey = lockoutKeyOf(email, known);
        const signIn = () => cms().signIn(email, password);
        const result = lockout ? await lockout.attempt(lockoutKey, signIn, isWrongPassword) : await signIn();
        // Two-factor on: no session yet, the code comes next (plugins/two-factor.server.ts).
        if (twoFactor && (await secondFactorEnabled(twoFactor(), result))) {
          await requireSecondFactor(ctx, result, ctx.body.rememberMe);
        }
        const user = await startCmsSession(ctx, result, "credentials", undefined, ctx.body.rememberMe);
        return ctx.json({ user: toPublicUser(user) });
      }),

      // No enumeration: a new address and a taken one get the same answer, after the same
      // time, and no session (a session only for new accounts would tell them apart).
      registerCms: createAuthEndpoint("/register-cms", schemaBody(registerSchema), async (ctx) => {
        const work = registerQuietly(cms(), ctx.body.email, ctx.body.password, log);
        // The CMS's setting, not the answer for this address (a taken address gets no user back).
        const emailConfirmation = cms()
          .emailConfirmation()
          .catch(() => false);
        await settleAfter(REGISTER_ANSWER_MS, work, () => undefined, "registration", log);
        const confirm = await emailConfirmation;
        return ctx.json({
          ok: true,
          emailConfirmation: confirm,
          message: confirm ? REGISTER_CONFIRM_MESSAGE : REGISTER_MESSAGE,
        });
      }),

      // The link of the confirmation mail leads to the site's /confirm-email, whose form posts the
      // code here; the site asks the CMS. An unknown or used code: INVALID_CONFIRMATION.
      confirmEmailCms: createAuthEndpoint("/confirm-email-cms", schemaBody(confirmEmailSchema), async (ctx) => {
        if ((await cms().confirmEmail(ctx.body.code)) === "invalid") throw new AuthError("INVALID_CONFIRMATION");
        return ctx.json({ ok: true });
      }),

      // No enumeration: the same answer, at once, whether the address is unknown, waiting for its
      // confirmation (a mail is sent), already confirmed or blocked.
      resendConfirmationCms: createAuthEndpoint(
        "/resend-confirmation-cms",
        schemaBody(resendConfirmationSchema),
        async (ctx) => {
          const users = cms();
          const { email } = ctx.body;
          inBackground(() => users.sendEmailConfirmation(email), "send-email-confirmation", log);
          return ctx.json({ ok: true, message: RESEND_CONFIRMATION_MESSAGE });
        },
      ),

      // No enumeration: Strapi writes a code and sends a mail only for a known address, so
      // the answer does not wait for it.
      forgotPasswordCms: createAuthEndpoint("/forgot-password-cms", schemaBody(forgotPasswordSchema), async (ctx) => {
        const users = cms();
        const { email } = ctx.body;
        inBackground(() => users.forgotPassword(email), "forgot-password", log);
        return ctx.json({ ok: true, message: FORGOT_PASSWORD_MESSAGE });
      }),

      resetPasswordCms: createAuthEndpoint("/reset-password-cms", schemaBody(resetPasswordSchema), async (ctx) => {
        const result = await cms().resetPassword(ctx.body.code, ctx.body.password);
        // Proof of the address: a lockout that others' wrong guesses put on it ends here (and the known devices').
        await lockout?.succeeded(result.user.email);
        await lockout?.succeeded(lockoutKeyOf(result.user.email, true));
        // The mail proves the address, not the second factor: with two-factor on, the code comes next.
        if (twoFactor && (await secondFactorEnabled(twoFactor(), result))) {
          await requireSecondFactor(ctx, result, false);
        }
        const user = await startCmsSession(ctx, result, "credentials");
        return ctx.json({ user: toPublicUser(user) });
      }),

      // The session is read the way every read is (revocation list, then the CMS): a copy of a
      // signed-out cookie cannot change the password, even while its CMS JWT is still valid.
      updatePasswordCms: createAuthEndpoint("/update-password-cms", schemaBody(updatePasswordSchema), async (ctx) => {
        const check = await readCheckedSession(ctx, cms(), revocations);
        if (check.state === "invalid") throw new AuthError("UNAUTHORIZED");
        if (check.state === "unknown") {
          log.warn(`[auth] could not re-validate a session with the CMS: ${check.error.message}`);
          throw cmsUnavailable(check.error);
        }
        const { stored, cmsJWT } = check;
        // Wrong current passwords count per account too (reauth-lockout.server.ts).
        const result = await withPasswordLockout(lockout, stored.user.id, ctx.body.currentPassword, () =>
          cms().changePassword(cmsJWT, ctx.body.currentPassword, ctx.body.password),
        );
        // The CMS issues a new JWT with the new password: keep that one.
        const user = await startCmsSession(
          ctx,
          result,
          stored.user.provider ?? "credentials",
          stored.user.oauthSubject ?? undefined,
        );
        return ctx.json({ user: toPublicUser(user) });
      }),
    },
  } satisfies BetterAuthPlugin;
}
