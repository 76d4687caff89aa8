import { describe, expect, it } from "vitest";

import { cookieNames } from "../app/lib/cookie-names.ts";
import { bypassesPageCache, hasSessionCookie } from "./page-cache-policy.ts";

describe("the signed-in variant", () => {
  it("on http (development): the plain session cookie's name, and only it, whatever its value", () => {
    const http = cookieNames(false);
    expect(hasSessionCookie("_ga=GA1.1.1; better-auth.session_token=abc.def", http)).toBe(true);
    expect(hasSessionCookie("__Host-better-auth.session_token=abc", http)).toBe(false);
    expect(hasSessionCookie("_ga=GA1.1.1; consent=yes", http)).toBe(false);
    expect(hasSessionCookie("better-auth.session_token=", http)).toBe(false);
    expect(hasSessionCookie("xbetter-auth.session_token=abc", http)).toBe(false);
    expect(hasSessionCookie(undefined, http)).toBe(false);
  });
});

describe("requests the page cache neither answers nor stores", () => {
  it.each([
    [{ cookie: "site_preview=v1.1.abc" }, true],
    [{ cookie: "a=1; site_preview=x; b=2" }, true],
    [{ cookie: "site_preview_published=1" }, true],
    [{ authorization: "Bearer x" }, true],
    [{ cookie: "site_preview=" }, false],
    [{ cookie: "xsite_preview=1; better-auth.session_token=abc" }, false],
    [{ cookie: undefined }, false],
    [{}, false],
  ])("%j -> %s", (headers, bypass) => {
    expect(bypassesPageCache(headers, cookieNames(false))).toBe(bypass);
  });
});

describe("on https, exactly the __Host- names (app/lib/cookie-names.ts)", () => {
  const https = cookieNames(true);

  it("only the __Host- session cookie picks the signed-in variant: one a sibling subdomain planted does not", () => {
    expect(hasSessionCookie("__Host-better-auth.session_token=abc.def", https)).toBe(true);
    for (const planted of ["better-auth.session_token=abc.def", "__Secure-better-auth.session_token=abc.def"]) {
      expect(hasSessionCookie(`_ga=1; ${planted}`, https), planted).toBe(false);
    }
  });

  it("only the __Host- preview cookies bypass the cache", () => {
    expect(bypassesPageCache({ cookie: "__Host-site_preview=v1.1.abc" }, https)).toBe(true);
    expect(bypassesPageCache({ cookie: "__Host-site_preview_published=1" }, https)).toBe(true);
    for (const planted of ["site_preview=v1.1.abc", "site_preview_published=1", "__Secure-site_preview_published=1"]) {
      expect(bypassesPageCache({ cookie: planted }, https), planted).toBe(false);
    }
  });
});
