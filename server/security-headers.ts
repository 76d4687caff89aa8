import type { IncomingMessage, ServerResponse } from "node:http";

import helmet from "helmet";

import { isAuthPagePath } from "../app/lib/auth/paths.ts";
import { oauthProviders } from "../app/lib/auth/providers.ts";
import { cookieNamesFor, type CookieNames } from "../app/lib/cookie-names.ts";
import type { Env } from "../app/lib/env.server.ts";
import { cmsAdminOrigin } from "../app/lib/preview/cms-admin-origin.ts";
import { hasPreviewCookie } from "./page-cache-policy.ts";

/**
 * Security headers for every response. Scripts: the HTML of a page is shared by every
 * visitor through the ISR cache, so a per-request CSP nonce cannot be used (a nonce served
 * to everyone is no secret); inline scripts are allowed and everything else is same-origin.
 * See docs/decisions/0002-csp-without-nonce.md.
 *
 * Framing: only this site may frame its pages (`frame-ancestors 'self'`, X-Frame-Options
 * SAMEORIGIN), except preview answers (the preview routes, and site pages requested with a preview
 * cookie, which the page cache never answers): the CMS admin shows those in an iframe, so its
 * origin (CMS_ADMIN_URL, else CMS_URL) may frame them, and X-Frame-Options, which cannot name an
 * origin, is left out (docs/decisions/0015-draft-preview.md).
 */
export function securityHeaders(env: Env) {
  // helmet's output does not depend on the request: read off once, then written as a list (running
  // its dozen middlewares, the policy rebuilt each time, was a measurable part of every render).
  const everyone = headersOf(helmetFor(env, false));
  const preview = headersOf(helmetFor(env, true));
  const names = cookieNamesFor(env.APP_PUBLIC_URL);
  return (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => {
    for (const [name, value] of isPreviewAnswer(req, names) ? preview : everyone) res.setHeader(name, value);
    // As helmet's hidePoweredBy does.
    res.removeHeader("X-Powered-By");
    next();
  };
}

/** What a helmet middleware sets (its names as it spells them), run once on a stand-in response. */
function headersOf(middleware: ReturnType<typeof helmet>): Array<[string, string]> {
  const headers = new Map<string, [string, string]>();
  const res = {
    setHeader: (name: string, value: unknown) => headers.set(name.toLowerCase(), [name, String(value)]),
    removeHeader: (name: string) => headers.delete(name.toLowerCase()),
    getHeader: (name: string) => headers.get(name.toLowerCase())?.[1],
  };
  let called = false;
  middleware({ headers: {}, method: "GET", url: "/" } as never, res as never, () => (called = true));
  if (!called) throw new Error("helmet did not complete synchronously");
  return [...headers.values()];
}

function isPreviewAnswer(req: IncomingMessage, names: CookieNames): boolean {
  const url = req.url ?? "";
  if (/^\/api\/preview(?:[/?]|$)/.test(url)) return true;
  return hasPreviewCookie(req.headers.cookie, names) && isPreviewablePage(url.split("?")[0] ?? "");
}

/**
 * What a preview cookie may make framable: site pages. Never the pages with forms that act on an
 * account (the auth pages of app/lib/auth/paths.ts, confirm-email among them, in every locale) or
 * the APIs, so a planted or left-over preview cookie cannot expose "Sign out everywhere" and the
 * like to clickjacking.
 */
function isPreviewablePage(pathname: string): boolean {
  return !isAuthPagePath(pathname) && !/^\/api\//.test(pathname);
}

function helmetFor(env: Env, framedByCms: boolean) {
  const https = env.APP_PUBLIC_URL.startsWith("https:");
  const development = env.NODE_ENV === "development";
  const cmsAdmin = cmsAdminOrigin(env);
  return helmet({
    contentSecurityPolicy: {
      directives: {
        "frame-ancestors": framedByCms ? ["'self'", cmsAdmin] : ["'self'"],
        "script-src": ["'self'", "'unsafe-inline'"],
        // Vite's HMR client talks over a websocket in development.
        "connect-src": development ? ["'self'", "ws:", "wss:"] : ["'self'"],
        // CMS media: the site's own /uploads/* proxy ('self'), or CMS_MEDIA_URL (app/lib/cms/media.ts).
        "img-src": ["'self'", "data:", env.CMS_URL, ...(env.CMS_MEDIA_URL ? [new URL(env.CMS_MEDIA_URL).origin] : [])],
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
    xFrameOptions: framedByCms ? false : { action: "sameorigin" },
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
