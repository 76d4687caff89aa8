import { describe, expect, it } from "vitest";

import {
  AUTH_ERRORS,
  authErrorFieldErrors,
  authErrorMessage,
  authErrorStatus,
  isAuthErrorCode,
  signInPageMessage,
  type AuthErrorCode,
} from "./error-codes.ts";

const codes = Object.keys(AUTH_ERRORS) as AuthErrorCode[];

describe("the auth error table", () => {
  it.each(codes)("%s has an error status and a sentence to show", (code) => {
    expect(authErrorStatus(code)).toBeGreaterThanOrEqual(400);
    expect(authErrorStatus(code)).toBeLessThan(600);
    const message = authErrorMessage(code);
    expect(message).toMatch(/^[A-Z].*\.$/);
    expect(message).not.toMatch(/undefined|NaN|\$\{/);
  });

  it("keeps the statuses and words the site has always answered with", () => {
    expect([authErrorStatus("INVALID_CREDENTIALS"), authErrorMessage("INVALID_CREDENTIALS")]).toEqual([
      401,
      "Wrong email or password.",
    ]);
    expect([authErrorStatus("INVALID_INPUT"), authErrorMessage("INVALID_INPUT")]).toEqual([
      400,
      "Please correct the highlighted fields.",
    ]);
    expect([authErrorStatus("CMS_UNAVAILABLE"), authErrorMessage("CMS_UNAVAILABLE")]).toEqual([
      503,
      "Accounts are unavailable right now. Please try again in a moment.",
    ]);
    expect(authErrorStatus("CROSS_ORIGIN")).toBe(403);
    expect(authErrorStatus("NOT_FOUND")).toBe(404);
    expect(authErrorStatus("BODY_TOO_LARGE")).toBe(413);
    expect(authErrorStatus("RATE_LIMITED")).toBe(429);
    expect(authErrorStatus("OAUTH_EMAIL_EXISTS")).toBe(409);
  });

  it("fills a message's blanks, and reads as a sentence without them", () => {
    expect(authErrorMessage("RATE_LIMITED", { retryAfterSeconds: 42 })).toBe(
      "Too many attempts. Please wait 42 seconds and try again.",
    );
    expect(authErrorMessage("RATE_LIMITED")).toBe("Too many attempts. Please wait a minute and try again.");
    expect(authErrorMessage("BODY_TOO_LARGE", { limitBytes: 16384 })).toBe(
      "This request is too large: at most 16384 bytes.",
    );
    expect(authErrorMessage("BODY_TOO_LARGE")).toBe("This request is too large.");
  });

  it("gives field messages for the codes that concern one field, as a copy", () => {
    expect(authErrorFieldErrors("WRONG_CURRENT_PASSWORD")).toEqual({
      currentPassword: "This is not your current password.",
    });
    expect(authErrorFieldErrors("SAME_PASSWORD")).toHaveProperty("password");
    expect(authErrorFieldErrors("INVALID_CREDENTIALS")).toEqual({});
    authErrorFieldErrors("SAME_PASSWORD").password = "changed";
    expect(authErrorFieldErrors("SAME_PASSWORD").password).toBe("Choose a password different from the current one.");
  });

  it("knows its own codes only", () => {
    for (const code of codes) expect(isAuthErrorCode(code)).toBe(true);
    for (const other of [
      "",
      "constructor",
      "__proto__",
      "toString",
      "hasOwnProperty",
      "blocked",
      "state_mismatch",
      42,
      null,
      undefined,
    ]) {
      expect(isAuthErrorCode(other)).toBe(false);
    }
  });
});

describe("the sign-in page's ?error=", () => {
  it("shows the table's message for a code the OAuth callback sends", () => {
    expect(signInPageMessage("OAUTH_EMAIL_EXISTS")).toContain("Sign in with your password instead");
    expect(signInPageMessage("OAUTH_ACCOUNT_UNCONFIRMED")).toContain("was never confirmed");
    expect(signInPageMessage("BLOCKED")).toBe("This account has been blocked.");
    expect(signInPageMessage("CMS_UNAVAILABLE")).toBe(authErrorMessage("CMS_UNAVAILABLE"));
  });

  it("shows the general message for anything else, and nothing without an error", () => {
    const general = "Signing in with that provider did not work. Please try again.";
    for (const error of [
      "state_mismatch",
      "please_restart_the_process",
      "constructor",
      "<script>alert(1)</script>",
      "oauth_email_exists",
    ]) {
      expect(signInPageMessage(error)).toBe(general);
    }
    expect(signInPageMessage(null)).toBeNull();
    expect(signInPageMessage("")).toBeNull();
  });
});

describe("the table's words in another locale", () => {
  it("gives the same code's German words, blanks filled, and English for a locale without its own", () => {
    expect(authErrorMessage("INVALID_CREDENTIALS", {}, "de")).toBe("E-Mail-Adresse oder Passwort ist falsch.");
    expect(authErrorMessage("RATE_LIMITED", { retryAfterSeconds: 42 }, "de")).toContain("42 Sekunden");
    expect(authErrorFieldErrors("WRONG_CURRENT_PASSWORD", "de")).toEqual({
      currentPassword: "Das ist nicht Ihr aktuelles Passwort.",
    });
    expect(authErrorMessage("INVALID_CREDENTIALS", {}, "fr")).toBe("Wrong email or password.");
    expect(authErrorMessage("INVALID_CREDENTIALS", {}, "__proto__")).toBe("Wrong email or password.");
    expect(signInPageMessage("BLOCKED", "de")).toBe("Dieses Konto ist gesperrt.");
    expect(signInPageMessage("state_mismatch", "de")).toBe(authErrorMessage("OAUTH_FAILED", {}, "de"));
  });
});
