import type { BetterAuthPlugin } from "better-auth";
import { APIError, createAuthEndpoint, getSessionFromCtx } from "better-auth/api";
import * as z from "zod";

import type { CmsUsers } from "../cms-users.server.ts";
import { asApiErrors } from "../errors.server.ts";
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

      registerCms: createAuthEndpoint("/register-cms", bodyOf, async (ctx) => {
        const input = parse(registerSchema, ctx.body);
        const result = await asApiErrors(() => cms().register(input.email, input.password));
        const user = await startCmsSession(ctx, result, "credentials");
        return ctx.json({ user: toPublicUser(user) });
      }),

      forgotPasswordCms: createAuthEndpoint("/forgot-password-cms", bodyOf, async (ctx) => {
        const input = parse(forgotPasswordSchema, ctx.body);
        await asApiErrors(() => cms().forgotPassword(input.email));
        return ctx.json({ ok: true, message: "If an account exists for this address, we have sent it a link to reset the password." });
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
