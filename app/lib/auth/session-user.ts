/**
 * The session user of spec.md ("Session user"). `cmsJWT` and `oauthSubject` live only in the
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
}

export type PublicSessionUser = Omit<SessionUser, "cmsJWT" | "oauthSubject">;

export function toPublicUser(user: SessionUser | (Record<string, unknown> & SessionUser)): PublicSessionUser {
  return {
    id: String(user.id),
    email: user.email,
    name: user.name,
    blocked: Boolean(user.blocked),
    provider: user.provider ?? "credentials",
    emailVerified: Boolean(user.emailVerified),
  };
}
