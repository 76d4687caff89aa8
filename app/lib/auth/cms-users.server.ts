import * as z from "zod";

import { CmsError } from "../cms/errors.server.ts";
import { createCmsHttp } from "../cms/http.server.ts";
import { AuthError, cmsUnavailable } from "./errors.server.ts";

/**
 * The CMS's users-permissions API (docs/cms-contract.md, "Users-permissions endpoints"), called server to
 * server. A refusal is recognised by its `details.code`, which the accounts plugin sets
 * (cms/src/plugins/accounts/server/users-permissions/refusal-codes.js), never by Strapi's English:
 * a reworded message must not change what a visitor is told (docs/decisions/0042-account-refusal-codes.md).
 * A refusal without a known code gets the call's generic answer. Strapi's words are never passed through.
 */

export const cmsUserSchema = z.object({
  id: z.number(),
  username: z.string(),
  email: z.string(),
  provider: z
    .string()
    .nullish()
    .transform((provider) => provider ?? "local"),
  confirmed: z
    .boolean()
    .nullish()
    .transform((confirmed) => confirmed ?? false),
  blocked: z
    .boolean()
    .nullish()
    .transform((blocked) => blocked ?? false),
});
export type CmsUser = z.infer<typeof cmsUserSchema>;

const authResponseSchema = z.object({ jwt: z.string().min(1), user: cmsUserSchema });
export type CmsAuth = z.infer<typeof authResponseSchema>;
/** Registration with email confirmation on: the user, no JWT (it signs in once confirmed). */
const pendingUserSchema = z.object({ user: cmsUserSchema });
const accountSettingsSchema = z.object({ emailConfirmation: z.boolean() });
/** How long the site trusts what GET /api/account-settings said. */
const SETTINGS_TTL_MS = 30_000;

export interface CmsUsersConfig {
  baseUrl: string;
  timeoutMs: number;
  fetch?: typeof fetch;
  /** CMS_ACCOUNT_API_SECRET: sent as X-Site-Secret on every call (the CMS's account API guard). */
  siteSecret?: string;
}

/**
 * What the CMS said when it refused a call: its status and `details.code` (the accounts plugin's:
 * cms/src/plugins/accounts/server/utils/refusals.js, ../users-permissions/refusal-codes.js).
 */
interface CmsRefusal {
  status: number;
  code?: string;
}

const refusalDetailsSchema = z.object({ code: z.string().optional() });

/**
 * A failed CMS call (a CmsError of app/lib/cms/http.server.ts) as the auth area reads it: the
 * CMS's refusal (a 4xx other than 429), for the caller to map to a code; 429 → RATE_LIMITED;
 * no answer, a 5xx or an answer of the wrong shape → CMS_UNAVAILABLE. Anything else is rethrown.
 */
function cmsRefusal(error: unknown): CmsRefusal {
  if (!(error instanceof CmsError)) throw error;
  const status = error.cmsStatus;
  if (status === 429) throw new AuthError("RATE_LIMITED", { cause: error });
  if (status === undefined || status < 400 || status >= 500) throw cmsUnavailable(error);
  const code = refusalDetailsSchema.safeParse(error.strapiError?.details).data?.code;
  return { status, ...(code ? { code } : {}) };
}

/** The answer of POST /api/account-sessions/email-change/confirm: a new JWT only for the same user's caller. */
const emailChangeConfirmedSchema = z.object({
  ok: z.literal(true),
  email: z.string(),
  jwt: z.string().min(1).optional(),
  user: cmsUserSchema.optional(),
});

export function createCmsUsers(config: CmsUsersConfig) {
  const http = createCmsHttp(config);
  let settings: { value: z.infer<typeof accountSettingsSchema>; at: number } | undefined;

  /** A users-permissions call; only the calls that act for a signed-in user carry a JWT (/auth/local never does). */
  function call<Schema extends z.ZodType>(schema: Schema, path: string, body?: unknown, jwt?: string) {
    return http.json(
      {
        method: body === undefined ? "GET" : "POST",
        path: `/api${path}`,
        body,
        credential: jwt === undefined ? undefined : { userJWT: jwt },
      },
      schema,
    );
  }

  return {
    async signIn(email: string, password: string): Promise<CmsAuth> {
      try {
        return await call(authResponseSchema, "/auth/local", { identifier: email, password });
      } catch (error) {
        const { status, code } = cmsRefusal(error);
        if (code === "BLOCKED") throw new AuthError("BLOCKED");
        if (code === "EMAIL_NOT_CONFIRMED") throw new AuthError("EMAIL_NOT_CONFIRMED");
        // INVALID_CREDENTIALS, and any refusal without a known code: the answer that tells nothing.
        if (status === 400 || status === 401) throw new AuthError("INVALID_CREDENTIALS");
        throw cmsUnavailable(error);
      }
    },

    /** The new user, or "taken" (never an error: the caller must not tell a visitor which). */
    async register(email: string, password: string): Promise<CmsAuth | { user: CmsUser } | "taken"> {
      try {
        return await call(z.union([authResponseSchema, pendingUserSchema]), "/auth/local/register", {
          username: email,
          email,
          password,
        });
      } catch (error) {
        const { status, code } = cmsRefusal(error);
        if (code === "EMAIL_TAKEN") return "taken";
        if (code === "REGISTRATION_CLOSED") throw new AuthError("REGISTRATION_CLOSED");
        // INVALID_REGISTRATION, and any refusal without a known code.
        if (status === 400) throw new AuthError("REGISTRATION_REFUSED");
        throw cmsUnavailable(error);
      }
    },

    async forgotPassword(email: string): Promise<void> {
      try {
        await call(z.unknown(), "/auth/forgot-password", { email });
      } catch (error) {
        // Unknown and known addresses get the same answer, here and in the CMS.
        const { status } = cmsRefusal(error);
        if (status !== 400 && status !== 404) throw cmsUnavailable(error);
      }
    },

    async resetPassword(code: string, password: string): Promise<CmsAuth> {
      try {
        return await call(authResponseSchema, "/auth/reset-password", {
          code,
          password,
          passwordConfirmation: password,
        });
      } catch (error) {
        const { status, code } = cmsRefusal(error);
        if (code === "RESET_LINK_EXPIRED") throw new AuthError("RESET_LINK_EXPIRED");
        // INVALID_RESET_CODE, and any refusal without a known code.
        if (status === 400) throw new AuthError("INVALID_CODE");
        throw cmsUnavailable(error);
      }
    },

    async changePassword(jwt: string, currentPassword: string, password: string): Promise<CmsAuth> {
      try {
        const body = { currentPassword, password, passwordConfirmation: password };
        return await call(authResponseSchema, "/auth/change-password", body, jwt);
      } catch (error) {
        const { status, code } = cmsRefusal(error);
        if (code === "INVALID_PASSWORD") throw new AuthError("WRONG_CURRENT_PASSWORD");
        if (code === "SAME_PASSWORD") throw new AuthError("SAME_PASSWORD");
        if (status === 401 || status === 403) throw new AuthError("SESSION_EXPIRED");
        throw cmsUnavailable(error);
      }
    },

    /**
     * Ends, in the CMS, this JWT's session ("this": Strapi's `POST /api/auth/logout` ends the
     * access token's session, whose JWT the CMS refuses from then on) or every session of its user
     * ("all": `{ scope: "all" }`). "invalid": the CMS already refuses the JWT (401). Throws when
     * unsure (no answer, 5xx, a 403: the role may not log out, a misconfigured CMS).
     */
    async endSessions(jwt: string, which: "this" | "all"): Promise<"done" | "invalid"> {
      try {
        await call(z.object({ ok: z.literal(true) }), "/auth/logout", which === "all" ? { scope: "all" } : {}, jwt);
        return "done";
      } catch (error) {
        const { status } = cmsRefusal(error);
        if (status === 401) return "invalid";
        throw cmsUnavailable(error);
      }
    },

    /**
     * Whether a new account must confirm its address before it can sign in (the CMS's
     * users-permissions setting `email_confirmation`, through GET /api/account-settings), cached
     * for 30 s. Throws when the CMS does not answer and nothing was cached.
     */
    async emailConfirmation(): Promise<boolean> {
      if (settings && Date.now() - settings.at < SETTINGS_TTL_MS) return settings.value.emailConfirmation;
      try {
        settings = { value: await call(accountSettingsSchema, "/account-settings"), at: Date.now() };
      } catch (error) {
        if (settings) return settings.value.emailConfirmation;
        throw cmsUnavailable(error);
      }
      return settings.value.emailConfirmation;
    },

    /**
     * Confirms an address with the code from the confirmation mail: "confirmed", or "invalid"
     * (unknown or already used: Strapi clears the code once used). Strapi answers a good code
     * with a redirect to `email_confirmation_redirection`, which is not followed.
     */
    async confirmEmail(code: string): Promise<"confirmed" | "invalid"> {
      const response = await http.send({
        path: "/api/auth/email-confirmation",
        query: { confirmation: code },
        redirect: "manual",
      });
      await response.body?.cancel();
      if (response.status >= 300 && response.status < 400) return "confirmed";
      if (response.status === 400) return "invalid";
      if (response.status === 429) throw new AuthError("RATE_LIMITED");
      throw cmsUnavailable(new Error(`the CMS answered the email confirmation with ${response.status}`));
    },

    /**
     * Sends a new confirmation mail. Strapi answers an unknown address like a known one, but not
     * an already confirmed or blocked one: those are swallowed here, so a caller cannot tell.
     */
    async sendEmailConfirmation(email: string): Promise<void> {
      try {
        await call(z.unknown(), "/auth/send-email-confirmation", { email });
      } catch (error) {
        const { status } = cmsRefusal(error);
        if (status !== 400 && status !== 404) throw cmsUnavailable(error);
      }
    },

    /** Changes the JWT's user's username (POST /api/account-sessions/username): the new one, as stored. */
    async changeUsername(jwt: string, username: string): Promise<string> {
      try {
        const answer = await call(
          z.object({ ok: z.literal(true), username: z.string() }),
          "/account-sessions/username",
          { username },
          jwt,
        );
        return answer.username;
      } catch (error) {
        const { status, code } = cmsRefusal(error);
        if (code === "USERNAME_TAKEN") throw new AuthError("USERNAME_TAKEN");
        if (code === "INVALID_USERNAME") throw new AuthError("INVALID_INPUT");
        if (status === 401 || status === 403) throw new AuthError("SESSION_EXPIRED");
        throw cmsUnavailable(error);
      }
    },

    /**
     * Deletes the JWT's user (POST /api/account-sessions/delete-account), after its password or,
     * for an account without one, a sign-in of the last 5 minutes.
     */
    async deleteAccount(jwt: string, password: string | undefined): Promise<void> {
      try {
        await call(z.object({ ok: z.literal(true) }), "/account-sessions/delete-account", { password }, jwt);
      } catch (error) {
        const { status, code } = cmsRefusal(error);
        if (code === "INVALID_PASSWORD" || code === "PASSWORD_REQUIRED") throw new AuthError("WRONG_CURRENT_PASSWORD");
        if (code === "SIGN_IN_AGAIN") throw new AuthError("SIGN_IN_AGAIN");
        if (status === 401 || status === 403) throw new AuthError("SESSION_EXPIRED");
        throw cmsUnavailable(error);
      }
    },

    /**
     * Asks for a change of the JWT's user's email (POST /api/account-sessions/email-change): the CMS
     * mails the new address a link (or, when it is taken, a note), the old one a notice. The same
     * answer either way. `locale`: the confirm page's locale prefix, for the link (none: the default).
     */
    async requestEmailChange(jwt: string, email: string, password: string | undefined, locale?: string) {
      try {
        await call(
          z.object({ ok: z.literal(true) }),
          "/account-sessions/email-change",
          { email, password, ...(locale ? { locale } : {}) },
          jwt,
        );
      } catch (error) {
        const { status, code } = cmsRefusal(error);
        if (code === "INVALID_PASSWORD" || code === "PASSWORD_REQUIRED") throw new AuthError("WRONG_CURRENT_PASSWORD");
        if (code === "SIGN_IN_AGAIN") throw new AuthError("SIGN_IN_AGAIN_EMAIL");
        if (code === "SAME_EMAIL") throw new AuthError("SAME_EMAIL");
        if (status === 400)
          throw new AuthError("INVALID_INPUT", { fieldErrors: { email: "Enter a valid email address." } });
        if (status === 401 || status === 403) throw new AuthError("SESSION_EXPIRED");
        throw cmsUnavailable(error);
      }
    },

    /**
     * Confirms a change of email with the token of the mail's link. With `jwt` (the confirming
     * browser's session), a new JWT and user come back when that session is the same user's.
     */
    async confirmEmailChange(token: string, jwt?: string): Promise<{ email: string; auth?: CmsAuth }> {
      try {
        const answer = await call(emailChangeConfirmedSchema, "/account-sessions/email-change/confirm", { token }, jwt);
        return {
          email: answer.email,
          ...(answer.jwt && answer.user ? { auth: { jwt: answer.jwt, user: answer.user } } : {}),
        };
      } catch (error) {
        const { status, code } = cmsRefusal(error);
        if (code === "LINK_EXPIRED") throw new AuthError("EMAIL_CHANGE_EXPIRED");
        if (code === "EMAIL_TAKEN") throw new AuthError("EMAIL_CHANGE_TAKEN");
        if (status === 400) throw new AuthError("EMAIL_CHANGE_INVALID");
        throw cmsUnavailable(error);
      }
    },

    /** The user behind a JWT: the user, "invalid" (401: expired, blocked, deleted), or throws when unsure. */
    async me(jwt: string): Promise<CmsUser | "invalid"> {
      try {
        return await call(cmsUserSchema, "/users/me", undefined, jwt);
      } catch (error) {
        const { status } = cmsRefusal(error);
        if (status === 401 || status === 403) return "invalid";
        throw cmsUnavailable(error);
      }
    },
  };
}

export type CmsUsers = ReturnType<typeof createCmsUsers>;
