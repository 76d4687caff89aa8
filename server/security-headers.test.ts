import type { IncomingMessage } from "node:http";

import { describe, expect, it } from "vitest";

import { parseEnv } from "../app/lib/env.server.ts";
import { securityHeaderList, securityHeaders } from "./security-headers.ts";

// Framing (docs/decisions/0015-draft-preview.md): only the site frames its pages, except preview
// answers, which the CMS admin's origin may frame (its Preview tab is an iframe).
const env = parseEnv({
  NODE_ENV: "production",
  APP_PUBLIC_URL: "https://www.example.com",
  CMS_URL: "http://cms.internal:1337",
  CMS_ADMIN_URL: "https://cms.example.com/admin",
  CMS_REST_READONLY_API_KEY: "token-0123456789abcdef",
  SESSION_AUTH_SECRET: "session-secret-0123456789-0123456789",
});

function headersFor(url: string, cookie?: string): Map<string, string> {
  const headers = new Map<string, string>();
  const res = {
    setHeader: (name: string, value: unknown) => headers.set(name.toLowerCase(), String(value)),
    removeHeader: (name: string) => headers.delete(name.toLowerCase()),
    getHeader: (name: string) => headers.get(name.toLowerCase()),
  };
  const req = { method: "GET", url, headers: cookie ? { cookie } : {} } as IncomingMessage;
  securityHeaders(env)(req, res as never, () => {});
  return headers;
}

const frameAncestors = (headers: Map<string, string>) =>
  /frame-ancestors ([^;]*)/.exec(headers.get("content-security-policy") ?? "")?.[1];

describe("framing", () => {
  it("pages and the cached list: this site only, X-Frame-Options SAMEORIGIN", () => {
    for (const headers of [
      headersFor("/company"),
      headersFor("/company", "site_previewx=1"),
      // On https, preview cookies without the __Host- prefix (a sibling subdomain can plant those).
      headersFor("/company", "site_preview=v1.2.x; site_preview_published=1"),
      headersFor("/company", "__Secure-site_preview_published=1"),
      new Map(securityHeaderList(env)),
    ]) {
      expect(frameAncestors(headers)).toBe("'self'");
      expect(headers.get("x-frame-options")).toBe("SAMEORIGIN");
    }
  });

  it("preview answers: the CMS admin's origin too, and no X-Frame-Options", () => {
    for (const headers of [
      headersFor("/company", "a=1; __Host-site_preview=v1.2.x"),
      headersFor("/company", "__Host-site_preview_published=1"),
      headersFor("/api/preview?secret=x&path=/"),
      headersFor("/api/preview/exit"),
    ]) {
      expect(frameAncestors(headers)).toBe("'self' https://cms.example.com");
      expect(headers.has("x-frame-options")).toBe(false);
    }
    expect(frameAncestors(headersFor("/api/previewer"))).toBe("'self'");
  });

  it("a preview cookie never makes account pages or APIs framable", () => {
    const accountPages = ["/account", "/de/account", "/sign-in?redirectTo=/", "/confirm-email", "/de/confirm-email"];
    for (const url of [...accountPages, "/api/auth/get-session"]) {
      const headers = headersFor(url, "__Host-site_preview=v1.2.x; __Host-site_preview_published=1");
      expect(frameAncestors(headers), url).toBe("'self'");
      expect(headers.get("x-frame-options"), url).toBe("SAMEORIGIN");
    }
  });
});

describe("the headers, read off helmet once", () => {
  it("every answer gets helmet's whole set, and no X-Powered-By", () => {
    const headers = headersFor("/company");
    headers.set("x-powered-by", "Express");
    const res = {
      setHeader: (name: string, value: unknown) => headers.set(name.toLowerCase(), String(value)),
      removeHeader: (name: string) => headers.delete(name.toLowerCase()),
      getHeader: (name: string) => headers.get(name.toLowerCase()),
    };
    securityHeaders(env)({ method: "GET", url: "/company", headers: {} } as IncomingMessage, res as never, () => {});
    expect([...headers.keys()].sort()).toEqual([
      "content-security-policy",
      "cross-origin-opener-policy",
      "cross-origin-resource-policy",
      "origin-agent-cluster",
      "referrer-policy",
      "strict-transport-security",
      "x-content-type-options",
      "x-dns-prefetch-control",
      "x-download-options",
      "x-frame-options",
      "x-permitted-cross-domain-policies",
      "x-xss-protection",
    ]);
    expect(headers.get("content-security-policy")).toContain("script-src 'self' 'unsafe-inline'");
  });
});
