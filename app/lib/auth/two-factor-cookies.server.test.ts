import { afterEach, describe, expect, it, vi } from "vitest";

import {
  openPendingSignIn,
  openRecoveryCodes,
  sealPendingSignIn,
  sealRecoveryCodes,
  twoFactorCookieAttributes,
  twoFactorCookieOf,
  twoFactorCookieSetIn,
  twoFactorSetCookie,
} from "./two-factor-cookies.server.ts";

// The sealed cookies of two-factor sign-in: what a browser holds cannot be read, changed, swapped
// or kept past 5 minutes.
const SECRET = "a-session-auth-secret-of-at-least-32-characters";
const auth = {
  jwt: "cms-jwt-of-ann",
  user: { id: 7, username: "ann", email: "ann@example.com", provider: "local", confirmed: true, blocked: false },
};

afterEach(() => {
  vi.useRealTimers();
});

describe("the pending sign-in cookie", () => {
  it("opens to what was sealed, with a one-use id and its end", async () => {
    const sealed = await sealPendingSignIn(SECRET, auth, true);
    const opened = await openPendingSignIn(SECRET, sealed);
    expect(opened).toMatchObject({ auth, rememberMe: true });
    expect(opened?.id).toMatch(/\w{8,}/);
    expect(opened!.expiresAt.getTime() - Date.now()).toBeGreaterThan(290_000);
    // Each seal is a new id.
    expect((await openPendingSignIn(SECRET, await sealPendingSignIn(SECRET, auth, true)))?.id).not.toBe(opened?.id);
  });

  it("carries a provider's sign-in (provider, subject, when) to the session it starts", async () => {
    const via = { provider: "local-oidc", oauthSubject: "sub-1", authAt: 1_700_000_000_000 };
    const opened = await openPendingSignIn(SECRET, await sealPendingSignIn(SECRET, auth, true, via));
    expect(opened?.via).toEqual(via);
    expect((await openPendingSignIn(SECRET, await sealPendingSignIn(SECRET, auth, true)))?.via).toBeUndefined();
  });

  it("does not show the CMS JWT or the address to whoever holds it", async () => {
    const sealed = await sealPendingSignIn(SECRET, auth, false);
    const readable = sealed
      .split(".")
      .map((part) => Buffer.from(part, "base64url").toString("latin1"))
      .join(" ");
    expect(readable).not.toContain("cms-jwt-of-ann");
    expect(readable).not.toContain("ann@example.com");
  });

  it("is refused when changed, sealed with another secret, or empty", async () => {
    const sealed = await sealPendingSignIn(SECRET, auth, false);
    const parts = sealed.split(".");
    const cipher = parts[3]!;
    const flipped = `${cipher[0] === "A" ? "B" : "A"}${cipher.slice(1)}`;
    expect(await openPendingSignIn(SECRET, [...parts.slice(0, 3), flipped, parts[4]].join("."))).toBeNull();
    expect(await openPendingSignIn(SECRET, `${sealed}x`)).toBeNull();
    expect(await openPendingSignIn(`${SECRET}-other`, sealed)).toBeNull();
    expect(await openPendingSignIn(SECRET, "")).toBeNull();
    expect(await openPendingSignIn(SECRET, null)).toBeNull();
    expect(await openPendingSignIn(SECRET, "not.a.jwe.at.all")).toBeNull();
  });

  it("is refused after 5 minutes (also within the JWE's clock tolerance)", async () => {
    vi.useFakeTimers({ now: new Date("2026-11-23T12:00:00Z"), toFake: ["Date"] });
    const sealed = await sealPendingSignIn(SECRET, auth, false);
    vi.setSystemTime(new Date("2026-11-23T12:04:55Z"));
    expect(await openPendingSignIn(SECRET, sealed)).not.toBeNull();
    vi.setSystemTime(new Date("2026-11-23T12:05:05Z"));
    expect(await openPendingSignIn(SECRET, sealed)).toBeNull();
  });

  it("cannot stand in for the recovery-codes cookie, nor the other way round", async () => {
    const pending = await sealPendingSignIn(SECRET, auth, false);
    const codes = await sealRecoveryCodes(SECRET, "7", ["AAAAA-BBBBB"]);
    expect(await openRecoveryCodes(SECRET, pending, "7")).toBeNull();
    expect(await openPendingSignIn(SECRET, codes)).toBeNull();
  });
});

describe("the recovery codes cookie", () => {
  it("opens for the user it was made for only", async () => {
    const sealed = await sealRecoveryCodes(SECRET, "7", ["AAAAA-BBBBB", "CCCCC-DDDDD"]);
    expect(await openRecoveryCodes(SECRET, sealed, "7")).toEqual(["AAAAA-BBBBB", "CCCCC-DDDDD"]);
    expect(await openRecoveryCodes(SECRET, sealed, "8")).toBeNull();
  });
});

describe("the cookies' headers", () => {
  it("are HttpOnly, SameSite=Lax, Path=/ and 5 minutes; on https __Host- named and Secure", () => {
    expect(twoFactorSetCookie("pending", "v", false)).toBe(
      "acme.two_factor_pending=v; Max-Age=300; Path=/; HttpOnly; SameSite=Lax",
    );
    expect(twoFactorSetCookie("codes", "v", true)).toBe(
      "__Host-acme.two_factor_codes=v; Max-Age=300; Path=/; HttpOnly; Secure; SameSite=Lax",
    );
    expect(twoFactorSetCookie("pending", null, false)).toBe(
      "acme.two_factor_pending=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax",
    );
    expect(twoFactorCookieAttributes(true)).toEqual({ path: "/", httpOnly: true, sameSite: "lax", secure: true });
  });

  it("are read from a Cookie header by their own name only", () => {
    const header = "x=1; acme.two_factor_codes=c; acme.two_factor_pending=p.q; y=2";
    expect(twoFactorCookieOf(header, "pending", false)).toBe("p.q");
    expect(twoFactorCookieOf(header, "codes", false)).toBe("c");
    expect(twoFactorCookieOf(header, "pending", true)).toBeNull();
    // On https, a `__Secure-` one (which a sibling subdomain can set for the whole domain) is not ours.
    expect(twoFactorCookieOf("__Secure-acme.two_factor_pending=p", "pending", true)).toBeNull();
    expect(twoFactorCookieOf("__Host-acme.two_factor_pending=p", "pending", true)).toBe("p");
    expect(twoFactorCookieOf(null, "pending", false)).toBeNull();
  });

  it("are found among an answer's Set-Cookie headers when set, not when expired", () => {
    const set = twoFactorSetCookie("pending", "sealed", false);
    const expired = twoFactorSetCookie("pending", null, false);
    expect(twoFactorCookieSetIn(["a=b; Path=/", set], "pending", false)).toBe("sealed");
    expect(twoFactorCookieSetIn([expired], "pending", false)).toBeNull();
  });
});
