import helmet from "helmet";

import { oauthProviders } from "../app/lib/auth/providers.ts";
import type { Env } from "../app/lib/env.server.ts";

/**
 * Security headers for every response. Scripts: the HTML of a page is shared by every
 * visitor through the ISR cache, so a per-request CSP nonce cannot be used (a nonce served
 * to everyone is no secret); inline scripts are allowed and everything else is same-origin.
 * See docs/decisions/0002-csp-without-nonce.md.
 */
export function securityHeaders(env: Env) {
  const https = env.APP_PUBLIC_URL.startsWith("https:");
  const development = env.NODE_ENV === "development";
  return helmet({
    contentSecurityPolicy: {
      directives: {
        "script-src": ["'self'", "'unsafe-inline'"],
        // Vite's HMR client talks over a websocket in development.
        "connect-src": development ? ["'self'", "ws:", "wss:"] : ["'self'"],
        "img-src": ["'self'", "data:", env.CMS_URL],
        // The OAuth sign-in form is answered with a redirect to the provider.
        "form-action": ["'self'", ...oauthProviders(env).map((provider) => provider.origin)],
        "upgrade-insecure-requests": https ? [] : null,
      },
    },
    strictTransportSecurity: https ? { maxAge: 60 * 60 * 24 * 365 } : false,
    // Not helmet's "no-referrer": with it, browsers send `Origin: null` on form posts, and
    // forms must prove they come from this site (React Router and app/lib/auth check Origin).
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
    crossOriginEmbedderPolicy: false,
  });
}

/**
 * The same headers as a list, for answers written without Express (cached pages on the
 * fast path): helmet's output does not depend on the request, so it is read off once.
 */
export function securityHeaderList(env: Env): Array<[string, string]> {
  const headers = new Map<string, string>();
  const res = {
    setHeader: (name: string, value: unknown) => headers.set(name.toLowerCase(), String(value)),
    removeHeader: (name: string) => headers.delete(name.toLowerCase()),
    getHeader: (name: string) => headers.get(name.toLowerCase()),
  };
  let called = false;
  securityHeaders(env)({ headers: {}, method: "GET", url: "/" } as never, res as never, () => (called = true));
  if (!called) throw new Error("helmet did not complete synchronously");
  return [...headers];
}
