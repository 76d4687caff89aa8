import * as z from "zod";

import { CmsError } from "../cms/errors.server.ts";
import { createCmsHttp } from "../cms/http.server.ts";
import type { Log } from "../log.ts";
import { cmsUserSchema, type CmsAuth } from "./cms-users.server.ts";
import { AuthError, cmsUnavailable } from "./errors.server.ts";

/**
 * The CMS's OAuth sync route (cms/src/plugins/accounts/server/services/oauth-sync/): finds or creates the CMS user for
 * someone who signed in with GitHub, Google or another OpenID Connect provider, and issues
 * their CMS JWT. Server to server, with a shared secret; no provider token is involved.
 * The provider account is identified by `subject` (the provider's id for it); the email only
 * matters the first time, and never leads into an account whose address nobody confirmed.
 */
export interface OAuthIdentity {
  provider: string;
  /** The provider's id for the account: OpenID Connect `sub`, GitHub's user id. */
  subject: string;
  email: string;
  /** Did the provider verify the email (now, in this sign-in)? */
  emailVerified: boolean;
  name?: string;
  /** Only an existing link counts: never create or link a user (re-syncing a session). */
  refresh?: boolean;
  /** With refresh: the provider sign-in the session rests on (ms), carried into the new JWT; never made newer. */
  authAt?: number;
}

// authAt: when the user signed in with the provider (ms, CMS clock), as the new JWT carries it (decision 0020).
const answerSchema = z.object({ jwt: z.string().min(1), user: cmsUserSchema, authAt: z.number().optional() });
const detailsSchema = z.object({ code: z.string().optional() });

export async function syncOAuthUserWithCms(
  config: { baseUrl: string; secret: string; timeoutMs: number; fetch?: typeof fetch; log: Pick<Log, "error"> },
  identity: OAuthIdentity,
): Promise<CmsAuth & { authAt?: number }> {
  try {
    return await createCmsHttp(config).json(
      {
        method: "POST",
        path: "/api/oauth-sync",
        credential: { secret: config.secret, variable: "CMS_OAUTH_SYNC_SECRET" },
        body: { ...identity, name: identity.name?.slice(0, 100) },
      },
      answerSchema,
    );
  } catch (error) {
    if (!(error instanceof CmsError)) throw error;
    // The visitor is told the table's message for the CMS's code (details.code), not the CMS's own words.
    const status = error.cmsStatus;
    const code = detailsSchema.safeParse(error.strapiError?.details).data?.code;
    if (status === 409 && code === "ACCOUNT_EMAIL_NOT_CONFIRMED") throw new AuthError("OAUTH_ACCOUNT_UNCONFIRMED");
    if (status === 409) throw new AuthError("OAUTH_EMAIL_EXISTS");
    if (status === 403) throw new AuthError("BLOCKED");
    if (status === 404 && identity.refresh) throw new AuthError("OAUTH_LINK_GONE");
    if (status === 401 || status === 503) {
      config.log.error(`[auth] the CMS refused the OAuth sync (${status}): check CMS_OAUTH_SYNC_SECRET on both sides`);
    }
    throw cmsUnavailable(error);
  }
}
