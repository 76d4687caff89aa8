import type { SocialProviders } from "better-auth";
import type { GenericOAuthConfig } from "better-auth/plugins";

import type { Env } from "../env.server.ts";

/**
 * The OAuth providers this site signs in with, derived from the environment in one place:
 * better-auth's configuration (auth.server.ts), the sign-in page's buttons and the CSP's
 * `form-action` (server/security-headers.ts: the OAuth form is answered with a redirect to the
 * provider) all read this list, so a provider is offered exactly when it works.
 *
 * A provider counts when its client id and secret are set, and only while the CMS's OAuth sync
 * is configured (`CMS_OAUTH_SYNC_SECRET`): without it no provider sign-in can finish.
 */

export type ProviderEnv = Pick<
  Env,
  | "CMS_OAUTH_SYNC_SECRET"
  | "GITHUB_CLIENT_ID"
  | "GITHUB_CLIENT_SECRET"
  | "GOOGLE_CLIENT_ID"
  | "GOOGLE_CLIENT_SECRET"
  | "OIDC_ISSUER"
  | "OIDC_CLIENT_ID"
  | "OIDC_CLIENT_SECRET"
  | "OIDC_PROVIDER_ID"
  | "OIDC_PROVIDER_NAME"
>;

/** What may be shown or sent anywhere: no client secret. */
export interface OAuthProvider {
  /** better-auth's provider id: `/api/auth/callback/<id>`, the CMS's `provider`. */
  id: string;
  /** For "Sign in with <name>". */
  name: string;
  /** Where the sign-in form's redirect leads (CSP form-action). */
  origin: string;
}

type Credentials = { clientId: string; clientSecret: string };

type Configured = OAuthProvider &
  (
    | { kind: "github"; credentials: Credentials }
    | { kind: "google"; credentials: Credentials }
    | { kind: "oidc"; issuer: string; credentials: Credentials }
  );

function configured(env: ProviderEnv): Configured[] {
  if (!env.CMS_OAUTH_SYNC_SECRET) return [];
  const providers: Configured[] = [];
  if (env.GITHUB_CLIENT_ID && env.GITHUB_CLIENT_SECRET) {
    providers.push({
      kind: "github",
      id: "github",
      name: "GitHub",
      origin: "https://github.com",
      credentials: { clientId: env.GITHUB_CLIENT_ID, clientSecret: env.GITHUB_CLIENT_SECRET },
    });
  }
  if (env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET) {
    providers.push({
      kind: "google",
      id: "google",
      name: "Google",
      origin: "https://accounts.google.com",
      credentials: { clientId: env.GOOGLE_CLIENT_ID, clientSecret: env.GOOGLE_CLIENT_SECRET },
    });
  }
  if (env.OIDC_ISSUER && env.OIDC_CLIENT_ID && env.OIDC_CLIENT_SECRET) {
    providers.push({
      kind: "oidc",
      id: env.OIDC_PROVIDER_ID,
      name: env.OIDC_PROVIDER_NAME,
      origin: new URL(env.OIDC_ISSUER).origin,
      issuer: env.OIDC_ISSUER,
      credentials: { clientId: env.OIDC_CLIENT_ID, clientSecret: env.OIDC_CLIENT_SECRET },
    });
  }
  return providers;
}

/** The configured providers, without their secrets: for the sign-in buttons and the CSP. */
export function oauthProviders(env: ProviderEnv): OAuthProvider[] {
  return configured(env).map(({ id, name, origin }) => ({ id, name, origin }));
}

/** The configured provider with this id (from a form: any string), or undefined. */
export function findOAuthProvider(env: ProviderEnv, id: unknown): OAuthProvider | undefined {
  return oauthProviders(env).find((provider) => provider.id === id);
}

/** better-auth's configuration for the same providers: built-in social providers and generic OpenID Connect ones. */
export function betterAuthProviders(env: ProviderEnv): {
  socialProviders: SocialProviders;
  genericOAuth: GenericOAuthConfig[];
} {
  const socialProviders: SocialProviders = {};
  const genericOAuth: GenericOAuthConfig[] = [];
  for (const provider of configured(env)) {
    if (provider.kind === "github") socialProviders.github = { ...provider.credentials, scope: ["user:email"] };
    if (provider.kind === "google") socialProviders.google = { ...provider.credentials };
    if (provider.kind === "oidc") {
      genericOAuth.push({
        providerId: provider.id,
        discoveryUrl: `${provider.issuer}/.well-known/openid-configuration`,
        ...provider.credentials,
        scopes: ["openid", "email", "profile"],
        pkce: true,
      });
    }
  }
  return { socialProviders, genericOAuth };
}
