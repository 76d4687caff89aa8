/**
 * The session user (docs/cms-contract.md, "Session user"). `cmsJWT` and `oauthSubject` live only in the
 * encrypted session cookie and in server memory: PublicSessionUser is what may reach a browser.
 */
export interface SessionUser {
  id: string;
  email: string;
  name: string;
  cmsJWT?: string;
  blocked: boolean;
  /** 'credentials', 'github', 'google', or the id of a generic OpenID Connect provider. */
  provider: string;
  emailVerified: boolean;
  /** Signed in with a provider: the provider's id for the account (OpenID Connect `sub`). Server only. */
  oauthSubject?: string;
  /**
   * Signed in with a provider: when that sign-in went to the provider and back (ms, the CMS's
   * clock: the JWT's `authAtMs`). Set only by the OAuth callback; a re-sync or a re-issued session
   * carries it on (decision 0020). Server only.
   */
  authAt?: number;
}

export type PublicSessionUser = Omit<SessionUser, "cmsJWT" | "oauthSubject" | "authAt">;

/**
 * The session user's fields beyond better-auth's own (id, email, name, emailVerified, ...), as
 * better-auth declares them (auth.server.ts `user.additionalFields`) and so types them when it
 * reads the session cookie back: optional, and possibly null.
 */
export const SESSION_USER_FIELDS = {
  cmsJWT: { type: "string", required: false, input: false },
  blocked: { type: "boolean", required: false, input: false },
  provider: { type: "string", required: false, input: false },
  oauthSubject: { type: "string", required: false, input: false },
  authAt: { type: "number", required: false, input: false },
} as const;

export interface StoredUserFields {
  cmsJWT?: string | null;
  blocked?: boolean | null;
  provider?: string | null;
  oauthSubject?: string | null;
  authAt?: number | null;
}

type UserLike = Pick<SessionUser, "id" | "email" | "name" | "emailVerified"> &
  Omit<StoredUserFields, "cmsJWT" | "oauthSubject" | "authAt">;

export function toPublicUser(user: UserLike): PublicSessionUser {
  return {
    id: String(user.id),
    email: user.email,
    name: user.name,
    blocked: Boolean(user.blocked),
    provider: user.provider ?? "credentials",
    emailVerified: Boolean(user.emailVerified),
  };
}
