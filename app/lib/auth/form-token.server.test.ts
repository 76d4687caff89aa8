import { describe, expect, it } from "vitest";

import { FORM_TOKEN_MAX_AGE_MS, checkFormToken, issueFormToken } from "./form-token.server.ts";

const SECRET = "test-session-secret-0123456789-0123456789";
const ISSUED = Date.UTC(2026, 10, 23, 12, 0, 0);
const check = (token: string | undefined, now: number, formPath = "/register", secret = SECRET) =>
  checkFormToken(secret, formPath, token, { minFillMs: 1500, now });

describe("the form token of the bot check", () => {
  const token = issueFormToken(SECRET, "/register", ISSUED);

  it("is accepted once the minimum fill time has passed, until it is a day old", () => {
    expect(check(token, ISSUED + 1500)).toBe("ok");
    expect(check(token, ISSUED + 60_000)).toBe("ok");
    expect(check(token, ISSUED + FORM_TOKEN_MAX_AGE_MS)).toBe("ok");
  });

  it("is too fast before the minimum fill time, and never with no minimum", () => {
    expect(check(token, ISSUED)).toBe("too-fast");
    expect(check(token, ISSUED + 1499)).toBe("too-fast");
    expect(checkFormToken(SECRET, "/register", token, { minFillMs: 0, now: ISSUED })).toBe("ok");
  });

  it("is refused when older than a day, or from the future beyond a little clock skew", () => {
    expect(check(token, ISSUED + FORM_TOKEN_MAX_AGE_MS + 1)).toBe("rejected");
    expect(check(issueFormToken(SECRET, "/register", ISSUED + 60_000), ISSUED)).toBe("rejected");
    expect(check(issueFormToken(SECRET, "/register", ISSUED + 2_000), ISSUED)).toBe("too-fast");
  });

  it("is refused for another form, or made with another secret", () => {
    expect(check(token, ISSUED + 5_000, "/sign-in")).toBe("rejected");
    expect(check(token, ISSUED + 5_000, "/register", `${SECRET}-other`)).toBe("rejected");
  });

  it("is refused when missing, garbled or tampered with", () => {
    const [time = "", mac = ""] = token.split(".");
    const flipped = `${mac.slice(0, 10)}${mac[10] === "A" ? "B" : "A"}${mac.slice(11)}`;
    const older = (ISSUED - 10_000).toString(36);
    for (const bad of [undefined, "", "garbage", `${time}.`, `.${mac}`, `${time}.${flipped}`, `${older}.${mac}`]) {
      expect(check(bad, ISSUED + 5_000), String(bad)).toBe("rejected");
    }
    expect(check(`${time}.${mac}x`, ISSUED + 5_000)).toBe("rejected");
    expect(check(` ${token}`, ISSUED + 5_000)).toBe("rejected");
  });
});
