import * as z from "zod";

import { CmsError } from "../cms/errors.server.ts";
import { createCmsHttp } from "../cms/http.server.ts";
import type { CmsUsersConfig } from "./cms-users.server.ts";
import type { AuthErrorCode } from "./error-codes.ts";
import { AuthError, cmsUnavailable } from "./errors.server.ts";

/**
 * The CMS's two-factor routes (docs/cms-contract.md, "Account two-factor"), called server to
 * server with the user's CMS JWT. Each refusal carries `error.details.code`, mapped here to one
 * of the site's codes (error-codes.ts); the CMS's words are never passed on. The TOTP secret
 * lives in the CMS (sealed, private); the site sees it once, in the answer to `setup`, to show it.
 */

const statusSchema = z.object({ enabled: z.boolean(), recoveryCodesLeft: z.number().int().nonnegative() });
export type TwoFactorStatus = z.infer<typeof statusSchema>;

const setupSchema = z.object({ secret: z.string().min(1), uri: z.string().startsWith("otpauth://") });
export type TwoFactorSetup = z.infer<typeof setupSchema>;

/** `jwt`: a new JWT for the caller, when the change ended every session so far (enable does). */
const codesSchema = z.object({ recoveryCodes: z.array(z.string().min(1)).min(1), jwt: z.string().min(1).optional() });
export type TwoFactorCodes = z.infer<typeof codesSchema>;

const verifySchema = z.object({
  method: z.enum(["totp", "recovery"]),
  recoveryCodesLeft: z.number().int().nonnegative(),
});
export type TwoFactorVerified = z.infer<typeof verifySchema>;

/** The CMS's `details.code` → the site's code. */
const CODES: Readonly<Record<string, AuthErrorCode>> = {
  INVALID_PASSWORD: "WRONG_CURRENT_PASSWORD",
  NO_PASSWORD: "TWO_FACTOR_NO_PASSWORD",
  ALREADY_ENABLED: "TWO_FACTOR_ALREADY_ENABLED",
  NOT_ENABLED: "TWO_FACTOR_NOT_ENABLED",
  NO_PENDING_SETUP: "TWO_FACTOR_NO_SETUP",
  INVALID_CODE: "TWO_FACTOR_WRONG_CODE",
  CODE_ALREADY_USED: "TWO_FACTOR_CODE_USED",
};

const detailsSchema = z.object({
  code: z.string().optional(),
  retryAfterSeconds: z.number().positive().optional(),
});

/**
 * A failed call as an AuthError: the CMS's code when it gave one we know; too many wrong codes
 * (429 TOO_MANY_ATTEMPTS) is RATE_LIMITED with the CMS's wait; a refused JWT is `refusedJwt`
 * (the session, or the pending sign-in, has ended); anything else CMS_UNAVAILABLE.
 */
function refusal(error: unknown, refusedJwt: AuthErrorCode): AuthError {
  if (!(error instanceof CmsError)) throw error;
  const details = detailsSchema.safeParse(error.strapiError?.details);
  const code = details.success ? details.data.code : undefined;
  const status = error.cmsStatus;
  if (status === 429) {
    const retryAfterSeconds = details.success ? details.data.retryAfterSeconds : undefined;
    return new AuthError("RATE_LIMITED", { params: retryAfterSeconds ? { retryAfterSeconds } : {}, cause: error });
  }
  if (status !== undefined && status >= 400 && status < 500) {
    if (code && Object.hasOwn(CODES, code)) return new AuthError(CODES[code]!, { cause: error });
    if (status === 401 || status === 403) return new AuthError(refusedJwt, { cause: error });
  }
  return cmsUnavailable(error);
}

export function createCmsTwoFactor(config: CmsUsersConfig) {
  const http = createCmsHttp(config);

  /** One call for the JWT's user; a refusal as an AuthError (`refusedJwt` when the JWT is refused). */
  async function call<Schema extends z.ZodType>(
    schema: Schema,
    jwt: string,
    path: string,
    body?: Record<string, string>,
    refusedJwt: AuthErrorCode = "SESSION_EXPIRED",
  ): Promise<z.output<Schema>> {
    try {
      return await http.json(
        {
          method: body === undefined ? "GET" : "POST",
          path: `/api/account-two-factor${path}`,
          body,
          credential: { userJWT: jwt },
        },
        schema,
      );
    } catch (error) {
      throw refusal(error, refusedJwt);
    }
  }

  return {
    /** Whether the JWT's user has two-factor on, and how many recovery codes are left. */
    status: (jwt: string) => call(statusSchema, jwt, ""),
    /** A new pending secret (after the password): shown once, to be confirmed with a code by `enable`. */
    setup: (jwt: string, password: string) => call(setupSchema, jwt, "/setup", { password }),
    /** Turns it on with a first code: ten recovery codes, and a JWT (every earlier session has ended). */
    enable: (jwt: string, code: string) => call(codesSchema, jwt, "/enable", { code }),
    /** The sign-in's second step: a TOTP code (never twice) or a recovery code (used up). */
    verify: (jwt: string, code: string) => call(verifySchema, jwt, "/verify", { code }, "TWO_FACTOR_EXPIRED"),
    disable: (jwt: string, password: string, code: string) =>
      call(z.object({ ok: z.literal(true) }), jwt, "/disable", { password, code }),
    /** Ten new recovery codes; the old ones stop working. */
    newRecoveryCodes: (jwt: string, code: string) => call(codesSchema, jwt, "/recovery-codes", { code }),
  };
}

export type CmsTwoFactor = ReturnType<typeof createCmsTwoFactor>;
