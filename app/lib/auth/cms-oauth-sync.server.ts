import * as z from "zod";

import { cmsUserSchema, type CmsAuth } from "./cms-users.server.ts";
import { AuthError, cmsUnavailable } from "./errors.server.ts";

/**
 * The CMS's OAuth sync route (cms/src/api/oauth-sync): finds or creates the CMS user for
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
}

const answerSchema = z.object({ jwt: z.string().min(1), user: cmsUserSchema });
const errorSchema = z.object({ error: z.object({ details: z.object({ reason: z.string().optional() }).optional() }) });

export async function syncOAuthUserWithCms(
  config: { baseUrl: string; secret: string; timeoutMs: number },
  identity: OAuthIdentity,
): Promise<CmsAuth> {
  let response: Response;
  try {
    response = await fetch(`${config.baseUrl}/api/oauth-sync`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${config.secret}`,
        "content-type": "application/json",
        accept: "application/json",
      },
      body: JSON.stringify({ ...identity, name: identity.name?.slice(0, 100) }),
      signal: AbortSignal.timeout(config.timeoutMs),
    });
  } catch (error) {
    throw cmsUnavailable(error);
  }
  const body: unknown = await response.json().catch(() => null);
  if (response.ok) {
    const parsed = answerSchema.safeParse(body);
    if (parsed.success) return parsed.data;
    throw cmsUnavailable();
  }
  // The visitor is told the table's message for the CMS's reason, not the CMS's own words.
  const reason = errorSchema.safeParse(body).data?.error.details?.reason;
  if (response.status === 409 && reason === "account_email_not_confirmed")
    throw new AuthError("OAUTH_ACCOUNT_UNCONFIRMED");
  if (response.status === 409) throw new AuthError("OAUTH_EMAIL_EXISTS");
  if (response.status === 403) throw new AuthError("BLOCKED");
  if (response.status === 404 && identity.refresh) throw new AuthError("OAUTH_LINK_GONE");
  if (response.status === 401 || response.status === 503) {
    console.error(
      `[auth] the CMS refused the OAuth sync (${response.status}): check CMS_OAUTH_SYNC_SECRET on both sides`,
    );
  }
  throw cmsUnavailable();
}
