import { describe, expect, it } from "vitest";

import { signValue } from "../signed-value.server.ts";
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
    expect(check(token, ISSUED + FORM_TOKEN_MAX_AGE_MS - 1)).toBe("ok");
  });

  it("is too fast before the minimum fill time, and never with no minimum", () => {
    expect(check(token, ISSUED)).toBe("too-fast");
    expect(check(token, ISSUED + 1499)).toBe("too-fast");
    expect(checkFormToken(SECRET, "/register", token, { minFillMs: 0, now: ISSUED })).toBe("ok");
  });

  it("is refused once a day old, or from the future beyond a little clock skew", () => {
    expect(check(token, ISSUED + FORM_TOKEN_MAX_AGE_MS)).toBe("rejected");
    expect(check(issueFormToken(SECRET, "/register", ISSUED + 60_000), ISSUED)).toBe("rejected");
    expect(check(issueFormToken(SECRET, "/register", ISSUED + 2_000), ISSUED)).toBe("too-fast");
  });

  it("is refused for another form, made with another secret or signed for another purpose", () => {
    expect(check(token, ISSUED + 5_000, "/sign-in")).toBe("rejected");
    expect(check(token, ISSUED + 5_000, "/register", `${SECRET}-other`)).toBe("rejected");
    const preview = signValue(SECRET, "preview/v2", "/register", ISSUED + FORM_TOKEN_MAX_AGE_MS);
    expect(check(preview, ISSUED + 5_000)).toBe("rejected");
  });

  it("is refused when missing, garbled or tampered with", () => {
    const [path = "", time = "", mac = ""] = token.split(".");
    const flipped = `${mac.slice(0, 10)}${mac[10] === "A" ? "B" : "A"}${mac.slice(11)}`;
    // Issued earlier than it was (to pass the fill time), or for another form, under the same MAC.
    const older = (ISSUED + FORM_TOKEN_MAX_AGE_MS - 10_000).toString(36);
    const signIn = Buffer.from("/sign-in").toString("base64url");
    for (const bad of [
      undefined,
      "",
      "garbage",
      `${path}.${time}.`,
      `.${time}.${mac}`,
      `${path}.${time}.${flipped}`,
      `${path}.${older}.${mac}`,
      `${signIn}.${time}.${mac}`,
    ]) {
      expect(check(bad, ISSUED + 5_000), String(bad)).toBe("rejected");
    }
    expect(check(`${path}.${time}.${mac}x`, ISSUED + 5_000)).toBe("rejected");
    expect(check(` ${token}`, ISSUED + 5_000)).toBe("rejected");
  });
});
