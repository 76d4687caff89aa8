import { describe, expect, it } from "vitest";

import { betterAuthProviders, findOAuthProvider, oauthProviders, type ProviderEnv } from "./providers.ts";

const none: ProviderEnv = { OIDC_PROVIDER_ID: "oidc", OIDC_PROVIDER_NAME: "OpenID Connect" };
const sync = { CMS_OAUTH_SYNC_SECRET: "s".repeat(32) };
const github = { GITHUB_CLIENT_ID: "gh-id", GITHUB_CLIENT_SECRET: "gh-secret" };
const google = { GOOGLE_CLIENT_ID: "g-id", GOOGLE_CLIENT_SECRET: "g-secret" };
const oidc = {
  OIDC_ISSUER: "https://login.example.com/realms/acme",
  OIDC_CLIENT_ID: "o-id",
  OIDC_CLIENT_SECRET: "o-secret",
  OIDC_PROVIDER_ID: "acme-sso",
  OIDC_PROVIDER_NAME: "Acme SSO",
};

describe("the OAuth providers", () => {
  it("are those with a client id and secret, in a fixed order, with the origin their form leads to", () => {
    expect(oauthProviders({ ...none, ...sync, ...github, ...google, ...oidc })).toEqual([
      { id: "github", name: "GitHub", origin: "https://github.com" },
      { id: "google", name: "Google", origin: "https://accounts.google.com" },
      { id: "acme-sso", name: "Acme SSO", origin: "https://login.example.com" },
    ]);
    expect(oauthProviders({ ...none, ...sync, GITHUB_CLIENT_ID: "gh-id" })).toEqual([]);
    expect(oauthProviders({ ...none, ...sync, ...google }).map((provider) => provider.id)).toEqual(["google"]);
  });

  it("are none while the CMS's OAuth sync is not configured: no sign-in could finish", () => {
    const env = { ...none, ...github, ...google, ...oidc };
    expect(oauthProviders(env)).toEqual([]);
    expect(betterAuthProviders(env)).toEqual({ socialProviders: {}, genericOAuth: [] });
  });

  it("never carry a secret in what is shown", () => {
    const shown = JSON.stringify(oauthProviders({ ...none, ...sync, ...github, ...google, ...oidc }));
    for (const secret of ["gh-secret", "g-secret", "o-secret", sync.CMS_OAUTH_SYNC_SECRET])
      expect(shown).not.toContain(secret);
  });

  it("configure better-auth for exactly the providers shown", () => {
    const env = { ...none, ...sync, ...github, ...oidc };
    const { socialProviders, genericOAuth } = betterAuthProviders(env);
    expect(socialProviders).toEqual({
      github: { clientId: "gh-id", clientSecret: "gh-secret", scope: ["user:email"] },
    });
    expect(genericOAuth).toEqual([
      {
        providerId: "acme-sso",
        discoveryUrl: "https://login.example.com/realms/acme/.well-known/openid-configuration",
        clientId: "o-id",
        clientSecret: "o-secret",
        scopes: ["openid", "email", "profile"],
        pkce: true,
      },
    ]);
    const configured = [...Object.keys(socialProviders), ...genericOAuth.map((provider) => provider.providerId)];
    expect(configured).toEqual(oauthProviders(env).map((provider) => provider.id));
  });

  it("find a configured provider by the id a form sent, and nothing else", () => {
    const env = { ...none, ...sync, ...github };
    expect(findOAuthProvider(env, "github")?.name).toBe("GitHub");
    for (const id of ["google", "oidc", "GitHub", "", "constructor", undefined, 42])
      expect(findOAuthProvider(env, id)).toBeUndefined();
  });
});
