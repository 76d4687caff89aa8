/**
 * The session user of spec.md ("Session user"). `cmsJWT` lives only in the encrypted
 * session cookie and in server memory: PublicSessionUser is what may reach a browser.
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
}

export type PublicSessionUser = Omit<SessionUser, "cmsJWT">;

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
