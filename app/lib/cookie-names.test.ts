import { describe, expect, it } from "vitest";

import { cookieNames, cookieNamesFor } from "./cookie-names.ts";

describe("cookie names", () => {
  it("on https: every cookie carries __Host- (host-only, Secure, Path=/), better-auth's through its prefix", () => {
    const names = cookieNamesFor("https://www.example.com");
    expect(names).toEqual({
      secure: true,
      auth: "__Host-better-auth",
      sessionToken: "__Host-better-auth.session_token",
      sessionData: "__Host-better-auth.session_data",
      knownDevice: "__Host-acme.known_device",
      preview: "__Host-site_preview",
      publishedView: "__Host-site_preview_published",
      twoFactorPending: "__Host-acme.two_factor_pending",
      twoFactorCodes: "__Host-acme.two_factor_codes",
    });
    // better-auth's baseURL (with its base path) names them the same way.
    expect(cookieNamesFor("https://www.example.com/api/auth")).toEqual(names);
  });

  it("on http (development, where browsers refuse __Host- cookies): the plain names", () => {
    const names = cookieNamesFor("http://localhost:3000");
    expect(names).toEqual(cookieNames(false));
    expect(Object.values(names).filter((name) => typeof name === "string" && name.includes("__"))).toEqual([]);
    expect(names.sessionToken).toBe("better-auth.session_token");
    expect(names.preview).toBe("site_preview");
    expect(names.knownDevice).toBe("acme.known_device");
  });

  it("is decided by the scheme alone, whatever its letter case", () => {
    expect(cookieNamesFor("HTTPS://WWW.EXAMPLE.COM").secure).toBe(true);
    expect(cookieNamesFor("http://www.example.com").secure).toBe(false);
  });
});
