import * as crypto from "node:crypto";

import { afterEach, describe, expect, it, vi } from "vitest";

import { purposeKey, signValue, verifyValue } from "./signed-value.server.ts";

// timingSafeEqual wrapped in a spy, so a test can see that the MAC check goes through it.
vi.mock("node:crypto", async (importOriginal) => {
  const actual = await importOriginal<typeof import("node:crypto")>();
  return { ...actual, timingSafeEqual: vi.fn(actual.timingSafeEqual) };
});

const SECRET = "signed-value-secret-0123456789-0123456789";
const NOW = Date.UTC(2026, 10, 25, 12);
const EXPIRES = NOW + 60_000;
const token = signValue(SECRET, "known-device/v1", "a~b", EXPIRES);
const [payload = "", expiry = "", mac = ""] = token.split(".");

afterEach(() => vi.mocked(crypto.timingSafeEqual).mockClear());

describe("signed values", () => {
  it("verify under the same secret and purpose until they expire, payload intact", () => {
    expect(token).toMatch(/^[\w-]+\.[0-9a-z]+\.[\w-]{43}$/);
    expect(verifyValue(SECRET, "known-device/v1", token, NOW)).toEqual({ payload: "a~b", expiresAt: EXPIRES });
    expect(verifyValue(SECRET, "known-device/v1", token, EXPIRES - 1)?.payload).toBe("a~b");
    const unicode = signValue(SECRET, "preview/v2", "é/✓", EXPIRES);
    expect(verifyValue(SECRET, "preview/v2", unicode, NOW)?.payload).toBe("é/✓");
    expect(verifyValue(SECRET, "preview/v2", signValue(SECRET, "preview/v2", "", EXPIRES), NOW)?.payload).toBe("");
  });

  it("are expired at their expiry and after", () => {
    expect(verifyValue(SECRET, "known-device/v1", token, EXPIRES)).toBeUndefined();
    expect(verifyValue(SECRET, "known-device/v1", token, EXPIRES + 1)).toBeUndefined();
  });

  it("are refused for another purpose or another secret", () => {
    expect(verifyValue(SECRET, "preview/v2", token, NOW)).toBeUndefined();
    expect(verifyValue(SECRET, "auth-form-token/v1", token, NOW)).toBeUndefined();
    expect(verifyValue(`${SECRET}-other`, "known-device/v1", token, NOW)).toBeUndefined();
    expect(purposeKey(SECRET, "preview/v2").equals(purposeKey(SECRET, "known-device/v1"))).toBe(false);
  });

  it("are refused when the payload, the expiry or the MAC was changed", () => {
    const otherPayload = Buffer.from("a~c").toString("base64url");
    const later = (EXPIRES + 3_600_000).toString(36);
    const flipped = `${mac.slice(0, 10)}${mac[10] === "A" ? "B" : "A"}${mac.slice(11)}`;
    // The last character's 2 spare bits: the same MAC bytes in another spelling.
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const respelled = `${mac.slice(0, -1)}${alphabet[alphabet.indexOf(mac.at(-1)!) ^ 1]}`;
    expect(Buffer.from(respelled, "base64url").equals(Buffer.from(mac, "base64url"))).toBe(true);
    for (const tampered of [
      `${otherPayload}.${expiry}.${mac}`,
      `${payload}.${later}.${mac}`,
      `${payload}.${expiry}.${flipped}`,
      `${payload}.${expiry}.${respelled}`,
    ]) {
      expect(verifyValue(SECRET, "known-device/v1", tampered, NOW), tampered).toBeUndefined();
    }
  });

  it("are refused when truncated, padded, missing or garbage", () => {
    for (const bad of [
      undefined,
      null,
      "",
      "garbage",
      token.slice(0, -1),
      `${payload}.${expiry}`,
      `${payload}.${expiry}.`,
      `${payload}..${mac}`,
      `${token}x`,
      ` ${token}`,
      `${token}.`,
      `${payload}.${expiry}.${mac}=`,
      `${"A".repeat(5000)}.${expiry}.${mac}`,
      "..",
    ]) {
      expect(verifyValue(SECRET, "known-device/v1", bad, NOW), String(bad)).toBeUndefined();
    }
  });

  it("compare the MAC with timingSafeEqual", () => {
    expect(verifyValue(SECRET, "known-device/v1", token, NOW)).toBeDefined();
    expect(verifyValue(SECRET, "preview/v2", token, NOW)).toBeUndefined();
    expect(crypto.timingSafeEqual).toHaveBeenCalledTimes(2);
  });

  it("refuse to sign an expiry that is no time", () => {
    for (const expiry of [Number.NaN, -1, 1.5, Number.POSITIVE_INFINITY]) {
      expect(() => signValue(SECRET, "preview/v2", "x", expiry)).toThrow(RangeError);
    }
  });
});
