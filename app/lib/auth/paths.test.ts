import { describe, expect, it } from "vitest";

import { AUTH_PAGES, authPath, isAuthPagePath, type AuthPage } from "./paths.ts";

const config = { locales: ["en", "de"], defaultLocale: "en" };

describe("authPath", () => {
  it("spells the default locale's auth pages without a prefix, as pages are spelt", () => {
    expect(authPath("signIn", "en", config)).toBe("/sign-in");
    expect(authPath("account", "en", config)).toBe("/account");
  });

  it("puts any other locale's prefix in front", () => {
    for (const page of Object.keys(AUTH_PAGES) as AuthPage[]) {
      expect(authPath(page, "de", config)).toBe(`/de${AUTH_PAGES[page]}`);
    }
  });

  it("follows the configured default locale", () => {
    expect(authPath("register", "de", { locales: ["en", "de"], defaultLocale: "de" })).toBe("/register");
    expect(authPath("register", "en", { locales: ["en", "de"], defaultLocale: "de" })).toBe("/en/register");
  });
});

describe("isAuthPagePath (never cached)", () => {
  it("knows both spellings of every auth page, under any first segment", () => {
    for (const path of Object.values(AUTH_PAGES)) {
      expect(isAuthPagePath(path), path).toBe(true);
      expect(isAuthPagePath(`/de${path}`), path).toBe(true);
      expect(isAuthPagePath(`/en${path}`), path).toBe(true);
      // Routed to the auth page too (which answers 404): not stored either.
      expect(isAuthPagePath(`/xx${path}`), path).toBe(true);
    }
  });

  it("in any letter case, as the router matches (the security headers judge paths before the 308 to lower case)", () => {
    for (const path of Object.values(AUTH_PAGES)) {
      expect(isAuthPagePath(path.toUpperCase()), path).toBe(true);
      expect(isAuthPagePath(`/DE${path.replace(/-./g, (dash) => dash.toUpperCase())}`), path).toBe(true);
    }
  });

  it("leaves other paths alone", () => {
    const others = ["/", "/de", "/company", "/de/company", "/a/b/sign-in", "/sign-in/x", "/sign-inx", "/de/x"];
    // Pages of two segments (`/sign-in/two-factor`) are matched whole, never by a part.
    others.push(
      "/two-factor",
      "/de/two-factor",
      "/sign-in/two-factor/x",
      "/de/account/two-factor/x",
      "/a/b/account/two-factor",
    );
    for (const path of others) {
      expect(isAuthPagePath(path), path).toBe(false);
    }
  });
});
