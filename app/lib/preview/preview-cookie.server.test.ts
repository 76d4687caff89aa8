import { describe, expect, it } from "vitest";

import { cookieNames } from "../cookie-names.ts";
import {
  isPreviewRequest,
  PREVIEW_MAX_AGE_SECONDS,
  previewCookieAttributes,
  previewCookieOf,
  previewCookies,
  signPreviewCookie,
  verifyPreviewCookie,
} from "./preview-cookie.server.ts";
import { signValue } from "../signed-value.server.ts";

const SECRET = "preview-secret-0123456789";
const NOW = Date.UTC(2026, 0, 1, 12);

describe("the preview cookie", () => {
  it("verifies what the same secret signed, until it expires", () => {
    const value = signPreviewCookie(SECRET, NOW);
    expect(verifyPreviewCookie(value, SECRET, NOW)).toBe(true);
    expect(verifyPreviewCookie(value, SECRET, NOW + (PREVIEW_MAX_AGE_SECONDS - 1) * 1000)).toBe(true);
    expect(verifyPreviewCookie(value, SECRET, NOW + PREVIEW_MAX_AGE_SECONDS * 1000)).toBe(false);
  });

  it("refuses another secret's signature, a changed expiry and anything malformed", () => {
    const value = signPreviewCookie(SECRET, NOW);
    const [payload = "", expires = "", signature = ""] = value.split(".");
    expect(verifyPreviewCookie(signPreviewCookie("another-secret-0123456789", NOW), SECRET, NOW)).toBe(false);
    // Pushing the expiry further out breaks the signature.
    const later = (Number.parseInt(expires, 36) + 60_000).toString(36);
    expect(verifyPreviewCookie(`${payload}.${later}.${signature}`, SECRET, NOW)).toBe(false);
    const flipped = `${signature.slice(0, 10)}${signature[10] === "A" ? "B" : "A"}${signature.slice(11)}`;
    const oldFormat = `v1.${Math.floor(NOW / 1000) + 600}.${signature}`;
    for (const forged of [undefined, "", "1", "v1", `${payload}.${expires}`, `${payload}.${expires}.`, oldFormat]) {
      expect(verifyPreviewCookie(forged, SECRET, NOW), String(forged)).toBe(false);
    }
    expect(verifyPreviewCookie(`${payload}.${expires}.${flipped}`, SECRET, NOW)).toBe(false);
  });

  it("refuses a value the same secret signed for another purpose, or another payload", () => {
    const expires = NOW + 60_000;
    expect(verifyPreviewCookie(signValue(SECRET, "known-device/v1", "draft", expires), SECRET, NOW)).toBe(false);
    expect(verifyPreviewCookie(signValue(SECRET, "preview/v1", "published", expires), SECRET, NOW)).toBe(false);
    expect(verifyPreviewCookie(signValue(SECRET, "preview/v1", "draft", expires), SECRET, NOW)).toBe(true);
  });

  it("refuses a signed expiry further out than a preview lasts (a cookie signed by a later clock)", () => {
    const early = NOW - 2 * PREVIEW_MAX_AGE_SECONDS * 1000;
    expect(verifyPreviewCookie(signPreviewCookie(SECRET, NOW), SECRET, early)).toBe(false);
  });

  it("is read from a Cookie header among others", () => {
    const value = signPreviewCookie(SECRET, NOW);
    const http = cookieNames(false);
    expect(previewCookieOf(`a=1; site_preview=${value}; b=2`, http)).toBe(value);
    expect(previewCookieOf("a=1; xsite_preview=1", http)).toBeUndefined();
    expect(previewCookieOf(null, http)).toBeUndefined();
    const now = signPreviewCookie(SECRET);
    const request = new Request("http://site.test/", { headers: { cookie: `site_preview=${now}` } });
    expect(isPreviewRequest(request, SECRET, "http://site.test")).toBe(true);
    expect(isPreviewRequest(request, undefined, "http://site.test")).toBe(false);
    expect(isPreviewRequest(new Request("http://site.test/"), SECRET, "http://site.test")).toBe(false);
  });

  it("on https, is read only under its __Host- name: a plain one a sibling subdomain planted is none", () => {
    const now = signPreviewCookie(SECRET);
    const withCookie = (cookie: string) => new Request("https://www.example.com/", { headers: { cookie } });
    expect(isPreviewRequest(withCookie(`__Host-site_preview=${now}`), SECRET, "https://www.example.com")).toBe(true);
    for (const planted of [`site_preview=${now}`, `__Secure-site_preview=${now}`]) {
      expect(isPreviewRequest(withCookie(planted), SECRET, "https://www.example.com"), planted).toBe(false);
    }
  });

  it("are httpOnly, and SameSite=None; Secure; Partitioned where browsers keep Secure cookies", () => {
    expect(previewCookieAttributes("https://www.example.com")).toEqual({
      path: "/",
      httpOnly: true,
      sameSite: "none",
      secure: true,
      partitioned: true,
    });
    expect(previewCookieAttributes("http://localhost:3000")).toMatchObject({ sameSite: "none", secure: true });
    expect(previewCookieAttributes("http://127.0.0.1:3000")).toEqual({
      path: "/",
      httpOnly: true,
      sameSite: "lax",
      secure: false,
    });
    const https = "https://www.example.com";
    const [draft, publishedCleared] = previewCookies("draft", SECRET, https, NOW);
    expect(draft).toMatch(
      /^__Host-site_preview=[\w-]+\.[0-9a-z]+\.[\w-]{43}; Max-Age=3600; Path=\/; HttpOnly; Secure; Partitioned; SameSite=None$/,
    );
    expect(publishedCleared).toBe(
      "__Host-site_preview_published=; Max-Age=0; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; Secure; Partitioned; SameSite=None",
    );
    const [draftCleared, published] = previewCookies("published", SECRET, https, NOW);
    expect(draftCleared).toBe(
      "__Host-site_preview=; Max-Age=0; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; Secure; Partitioned; SameSite=None",
    );
    expect(published).toBe(
      "__Host-site_preview_published=1; Max-Age=3600; Path=/; HttpOnly; Secure; Partitioned; SameSite=None",
    );
    // On http (development) the plain names; http://localhost keeps Secure cookies, so these are Secure too.
    expect(previewCookies("draft", SECRET, "http://localhost:3000", NOW)[0]).toMatch(
      /^site_preview=[\w-]+\..*; Secure;/,
    );
    expect(previewCookies("published", SECRET, "http://127.0.0.1:3000", NOW)).toEqual([
      "site_preview=; Max-Age=0; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax",
      "site_preview_published=1; Max-Age=3600; Path=/; HttpOnly; SameSite=Lax",
    ]);
    expect(previewCookies("none", "", https, NOW).every((cookie) => cookie.includes("; Max-Age=0;"))).toBe(true);
  });
});
