import * as z from "zod";

import { AuthError, cmsUnavailable } from "./errors.server.ts";

/**
 * The CMS's users-permissions API (docs/cms-contract.md, "Users-permissions endpoints"), called server to
 * server. Strapi's messages are mapped to ones a visitor can act on, with the right status;
 * they are never passed through raw.
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

const errorSchema = z.object({ error: z.object({ message: z.string().optional() }).optional() });

export interface CmsUsersConfig {
  baseUrl: string;
  timeoutMs: number;
  fetch?: typeof fetch;
}

type Answer = { status: number; body: unknown };

export function createCmsUsers(config: CmsUsersConfig) {
  const doFetch = config.fetch ?? fetch;

  async function call(method: "GET" | "POST", path: string, body?: unknown, jwt?: string): Promise<Answer> {
    let response: Response;
    try {
      response = await doFetch(`${config.baseUrl}/api${path}`, {
        method,
        headers: {
          accept: "application/json",
          ...(body === undefined ? {} : { "content-type": "application/json" }),
          // Only the calls that act for a signed-in user carry a user JWT; /auth/local never does.
          ...(jwt ? { authorization: `Bearer ${jwt}` } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(config.timeoutMs),
      });
    } catch (error) {
      throw cmsUnavailable(error);
    }
    const parsed: unknown = await response.json().catch(() => null);
    if (response.status === 429) {
      throw new AuthError("RATE_LIMITED");
    }
    if (response.status >= 500) throw cmsUnavailable();
    return { status: response.status, body: parsed };
  }

  function messageOf(answer: Answer): string {
    const parsed = errorSchema.safeParse(answer.body);
    return (parsed.success && parsed.data.error?.message) || "";
  }

  function authResult(answer: Answer): CmsAuth {
    const parsed = authResponseSchema.safeParse(answer.body);
    if (!parsed.success) throw cmsUnavailable();
    return parsed.data;
  }

  return {
    async signIn(email: string, password: string): Promise<CmsAuth> {
      const answer = await call("POST", "/auth/local", { identifier: email, password });
      if (answer.status === 200) return authResult(answer);
      const message = messageOf(answer);
      if (/blocked/i.test(message)) throw new AuthError("BLOCKED");
      if (/not confirmed/i.test(message)) throw new AuthError("EMAIL_NOT_CONFIRMED");
      if (answer.status === 400 || answer.status === 401) throw new AuthError("INVALID_CREDENTIALS");
      throw cmsUnavailable();
    },

    /** The new user, or "taken" (never an error: the caller must not tell a visitor which). */
    async register(email: string, password: string): Promise<CmsAuth | "taken"> {
      const answer = await call("POST", "/auth/local/register", { username: email, email, password });
      if (answer.status === 200) return authResult(answer);
      const message = messageOf(answer);
      if (/already taken/i.test(message)) return "taken";
      if (/disabled/i.test(message)) throw new AuthError("REGISTRATION_CLOSED");
      if (answer.status === 400) throw new AuthError("REGISTRATION_REFUSED");
      throw cmsUnavailable();
    },

    async forgotPassword(email: string): Promise<void> {
      const answer = await call("POST", "/auth/forgot-password", { email });
      // Unknown and known addresses get the same answer, here and in the CMS.
      if (answer.status >= 400 && answer.status !== 404) {
        if (answer.status === 400) return;
        throw cmsUnavailable();
      }
    },

    async resetPassword(code: string, password: string): Promise<CmsAuth> {
      const answer = await call("POST", "/auth/reset-password", { code, password, passwordConfirmation: password });
      if (answer.status === 200) return authResult(answer);
      if (/incorrect code/i.test(messageOf(answer)) || answer.status === 400) throw new AuthError("INVALID_CODE");
      throw cmsUnavailable();
    },

    async changePassword(jwt: string, currentPassword: string, password: string): Promise<CmsAuth> {
      const answer = await call(
        "POST",
        "/auth/change-password",
        { currentPassword, password, passwordConfirmation: password },
        jwt,
      );
      if (answer.status === 200) return authResult(answer);
      const message = messageOf(answer);
      if (/current password is invalid/i.test(message)) throw new AuthError("WRONG_CURRENT_PASSWORD");
      if (/different/i.test(message)) throw new AuthError("SAME_PASSWORD");
      if (answer.status === 401 || answer.status === 403) throw new AuthError("SESSION_EXPIRED");
      throw cmsUnavailable();
    },

    /** The user behind a JWT: the user, "invalid" (401: expired, blocked, deleted), or throws when unsure. */
    async me(jwt: string): Promise<CmsUser | "invalid"> {
      const answer = await call("GET", "/users/me", undefined, jwt);
      if (answer.status === 401 || answer.status === 403) return "invalid";
      const parsed = cmsUserSchema.safeParse(answer.body);
      if (answer.status !== 200 || !parsed.success) throw cmsUnavailable();
      return parsed.data;
    },
  };
}

export type CmsUsers = ReturnType<typeof createCmsUsers>;
