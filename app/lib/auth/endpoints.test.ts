import fc from "fast-check";
import { describe, expect, it } from "vitest";

import { FORM_BUDGETS, openEndpoint } from "./endpoints.ts";
import { AUTH_PAGES } from "./paths.ts";

describe("open auth endpoints", () => {
  it.each([
    ["GET", "/get-session"],
    ["GET", "/callback/github"],
    ["GET", "/oauth2/callback/local-oidc"],
    ["POST", "/sign-in-cms"],
    ["POST", "/sign-out"],
    ["POST", "/sign-out-everywhere-cms"],
    ["POST", "/sign-in/social"],
  ])("%s %s is open", (method, path) => {
    expect(openEndpoint(method, path)).not.toBeNull();
  });

  it.each([
    ["POST", "/update-user"],
    ["POST", "/change-email"],
    ["POST", "/delete-user"],
    ["POST", "/sign-up/email"],
    ["POST", "/sign-in/email"],
    ["POST", "/get-access-token"],
    ["GET", "/get-access-token"],
    ["GET", "/list-accounts"],
    ["GET", "/list-sessions"],
    ["POST", "/sign-in-cms/x"],
    ["GET", "/sign-in-cms"],
    ["GET", "/callback/../get-access-token"],
  ])("%s %s is closed (404)", (method, path) => {
    expect(openEndpoint(method, path)).toBeNull();
  });

  it("a random path never gets a budget of its own", () => {
    fc.assert(
      fc.property(fc.string(), (path) => {
        const endpoint = openEndpoint("POST", `/${path}`);
        if (endpoint)
          expect([
            "/sign-in-cms",
            "/register-cms",
            "/forgot-password-cms",
            "/reset-password-cms",
            "/update-password-cms",
            "/sync-oauth-cms",
            "/sign-in/social",
            "/sign-in/oauth2",
            "/sign-out",
            "/sign-out-everywhere-cms",
            "/change-username-cms",
            "/delete-account-cms",
          ]).toContain(`/${path}`);
      }),
    );
  });

  it("each form spends the budget of its JSON endpoint", () => {
    expect(FORM_BUDGETS[AUTH_PAGES.signIn]).toBe(openEndpoint("POST", "/sign-in-cms")?.budget);
    expect(FORM_BUDGETS[AUTH_PAGES.register]).toBe(openEndpoint("POST", "/register-cms")?.budget);
    expect(FORM_BUDGETS[AUTH_PAGES.forgotPassword]).toBe(openEndpoint("POST", "/forgot-password-cms")?.budget);
    expect(FORM_BUDGETS[AUTH_PAGES.resetPassword]).toBe(openEndpoint("POST", "/reset-password-cms")?.budget);
    expect(FORM_BUDGETS[AUTH_PAGES.account]).toBe(openEndpoint("POST", "/update-password-cms")?.budget);
  });
});
