import type { BetterAuthPlugin } from "better-auth";
import { APIError, createAuthEndpoint, getSessionFromCtx } from "better-auth/api";
import * as z from "zod";

import type { CmsUsers } from "../cms-users.server.ts";
import { AuthError, asApiErrors } from "../errors.server.ts";
import { inBackground, REGISTER_ANSWER_MS, settleAfter } from "../same-answer.server.ts";
import {
  fieldErrorsOf,
  forgotPasswordSchema,
  registerSchema,
  resetPasswordSchema,
  signInSchema,
  updatePasswordSchema,
} from "../schemas.ts";
import { toPublicUser, type SessionUser } from "../session-user.ts";
import { startCmsSession } from "./start-session.server.ts";

/**
 * The credential plugin: sign-in, registration and the password flows, done against the
 * CMS on the server. The form actions (app/routes/*) call these same endpoints through
 * auth.api, so there is one implementation of each flow.
 */

function parse<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  const parsed = schema.safeParse(body ?? {});
  if (!parsed.success) {
    throw new APIError(400, { code: "INVALID_INPUT", message: "Please correct the highlighted fields.", fieldErrors: fieldErrorsOf(parsed.error) });
  }
  return parsed.data;
}

const bodyOf = { method: "POST" as const, body: z.unknown() };

/** What registration answers, whether the address was new (the account now exists) or already registered. */
const REGISTER_MESSAGE =
  "Thank you. If this email address was not registered yet, your account is ready: sign in with it. If it was, sign in with your password, or reset it.";
const FORGOT_PASSWORD_MESSAGE = "If an account exists for this address, we have sent it a link to reset the password.";

/**
 * Registers, telling nobody whether the address was new or taken. What Strapi refuses before
 * it looks the address up (registration closed, invalid input, its rate limit) is shown; an
 * unreachable or failing CMS is only logged, as a failed write happens for new addresses only.
 */
async function registerQuietly(users: CmsUsers, email: string, password: string): Promise<void> {
  try {
    await users.register(email, password);
  } catch (error) {
    if (error instanceof AuthError && error.status !== 503) throw error;
    console.warn(`[auth] registration failed in the CMS: ${(error as Error).message}`);
  }
}

export function cmsCredentials(cms: () => CmsUsers) {
  return {
    id: "cms-credentials",
    endpoints: {
      signInCms: createAuthEndpoint("/sign-in-cms", bodyOf, async (ctx) => {
        const input = parse(signInSchema, ctx.body);
        const result = await asApiErrors(() => cms().signIn(input.email, input.password));
        const user = await startCmsSession(ctx, result, "credentials");
        return ctx.json({ user: toPublicUser(user) });
      }),

      // No enumeration: a new address and a taken one get the same answer, after the same
      // time, and no session (a session only for new accounts would tell them apart).
      registerCms: createAuthEndpoint("/register-cms", bodyOf, async (ctx) => {
        const input = parse(registerSchema, ctx.body);
        const work = registerQuietly(cms(), input.email, input.password);
        await asApiErrors(() => settleAfter(REGISTER_ANSWER_MS, work, () => undefined, "registration"));
        return ctx.json({ ok: true, message: REGISTER_MESSAGE });
      }),

      // No enumeration: Strapi writes a code and sends a mail only for a known address, so
      // the answer does not wait for it.
      forgotPasswordCms: createAuthEndpoint("/forgot-password-cms", bodyOf, async (ctx) => {
        const input = parse(forgotPasswordSchema, ctx.body);
        const users = cms();
        inBackground(() => users.forgotPassword(input.email), "forgot-password");
        return ctx.json({ ok: true, message: FORGOT_PASSWORD_MESSAGE });
      }),

      resetPasswordCms: createAuthEndpoint("/reset-password-cms", bodyOf, async (ctx) => {
        const input = parse(resetPasswordSchema, ctx.body);
        const result = await asApiErrors(() => cms().resetPassword(input.code, input.password));
        const user = await startCmsSession(ctx, result, "credentials");
        return ctx.json({ user: toPublicUser(user) });
      }),

      updatePasswordCms: createAuthEndpoint("/update-password-cms", bodyOf, async (ctx) => {
        const session = await getSessionFromCtx(ctx);
        const current = session?.user as (SessionUser & Record<string, unknown>) | undefined;
        if (!current?.cmsJWT) {
          throw new APIError(401, { code: "UNAUTHORIZED", message: "Please sign in to change your password." });
        }
        const input = parse(updatePasswordSchema, ctx.body);
        const result = await asApiErrors(() => cms().changePassword(current.cmsJWT!, input.currentPassword, input.password));
        // The CMS issues a new JWT with the new password: keep that one.
        const user = await startCmsSession(ctx, result, current.provider ?? "credentials");
        return ctx.json({ user: toPublicUser(user) });
      }),
    },
  } satisfies BetterAuthPlugin;
}
