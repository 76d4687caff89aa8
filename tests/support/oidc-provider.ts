import type { Server } from "node:http";

import Provider from "oidc-provider";

/**
 * A real OpenID Connect provider on loopback (the `oidc-provider` package), standing in for
 * GitHub or Google in the end-to-end tests. Its development login form accepts any login;
 * the account's email is `<login>@example.com`, verified unless the login starts with
 * "unverified".
 */
export interface OidcHandle {
  issuer: string;
  clientId: string;
  clientSecret: string;
  stop(): Promise<void>;
}

export async function startOidcProvider(options: { port: number; redirectUri: string }): Promise<OidcHandle> {
  const issuer = `http://127.0.0.1:${options.port}`;
  const clientId = "acme-site";
  const clientSecret = "acme-site-secret-0123456789";
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [options.redirectUri],
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
      },
    ],
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    scopes: ["openid", "email", "profile"],
    pkce: { required: () => false },
    async findAccount(_ctx, sub) {
      return {
        accountId: sub,
        async claims() {
          return {
            sub,
            email: `${sub}@example.com`,
            email_verified: !sub.startsWith("unverified"),
            name: `OIDC ${sub}`,
          };
        },
      };
    },
  });
  // Plain HTTP on loopback is fine for a test provider.
  provider.proxy = false;
  const server: Server = provider.listen(options.port);
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  return {
    issuer,
    clientId,
    clientSecret,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
