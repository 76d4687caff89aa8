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
const SCOPE = { path: "/company", type: "api::page.page", document: "doc-a" };

describe("the preview cookie", () => {
  it("verifies what the same secret signed, until it expires", () => {
    const value = signPreviewCookie(SECRET, SCOPE, NOW);
    expect(verifyPreviewCookie(value, SECRET, NOW)).toEqual(SCOPE);
    expect(verifyPreviewCookie(value, SECRET, NOW + (PREVIEW_MAX_AGE_SECONDS - 1) * 1000)).toEqual(SCOPE);
    expect(verifyPreviewCookie(value, SECRET, NOW + PREVIEW_MAX_AGE_SECONDS * 1000)).toBeNull();
  });

  it("refuses another secret's signature, a changed expiry and anything malformed", () => {
    const value = signPreviewCookie(SECRET, SCOPE, NOW);
    const [payload = "", expires = "", signature = ""] = value.split(".");
    expect(verifyPreviewCookie(signPreviewCookie("another-secret-0123456789", SCOPE, NOW), SECRET, NOW)).toBeNull();
    // Pushing the expiry further out breaks the signature.
    const later = (Number.parseInt(expires, 36) + 60_000).toString(36);
    expect(verifyPreviewCookie(`${payload}.${later}.${signature}`, SECRET, NOW)).toBeNull();
    const flipped = `${signature.slice(0, 10)}${signature[10] === "A" ? "B" : "A"}${signature.slice(11)}`;
    const oldFormat = `v1.${Math.floor(NOW / 1000) + 600}.${signature}`;
    for (const forged of [undefined, "", "1", "v1", `${payload}.${expires}`, `${payload}.${expires}.`, oldFormat]) {
      expect(verifyPreviewCookie(forged, SECRET, NOW), String(forged)).toBeNull();
    }
    expect(verifyPreviewCookie(`${payload}.${expires}.${flipped}`, SECRET, NOW)).toBeNull();
  });

  it("refuses a value the same secret signed for another purpose, or another payload", () => {
    const expires = NOW + 60_000;
    const scoped = JSON.stringify(["/company", "api::page.page", "doc-a"]);
    expect(verifyPreviewCookie(signValue(SECRET, "known-device/v1", scoped, expires), SECRET, NOW)).toBeNull();
    // The unscoped cookie of before (payload `draft`, every page's drafts) opens nothing.
    expect(verifyPreviewCookie(signValue(SECRET, "preview/v2", "draft", expires), SECRET, NOW)).toBeNull();
    expect(verifyPreviewCookie(signValue(SECRET, "preview/v2", '["/company"]', expires), SECRET, NOW)).toBeNull();
    expect(verifyPreviewCookie(signValue(SECRET, "preview/v2", scoped, expires), SECRET, NOW)).toEqual(SCOPE);
  });

  it("shows drafts only on the address it was opened for", () => {
    const value = signPreviewCookie(SECRET, SCOPE);
    const request = new Request("http://site.test/company.data", { headers: { cookie: `site_preview=${value}` } });
    expect(isPreviewRequest(request, SECRET, "http://site.test", "/company")).toBe(true);
    for (const other of ["/", "/about", "/de/company", "/company/careers", "/companyx"]) {
      expect(isPreviewRequest(request, SECRET, "http://site.test", other), other).toBe(false);
    }
    const accented = signPreviewCookie(SECRET, { ...SCOPE, path: "/caf%C3%A9" });
    const withAccent = new Request("http://site.test/", { headers: { cookie: `site_preview=${accented}` } });
    expect(isPreviewRequest(withAccent, SECRET, "http://site.test", "/café")).toBe(true);
  });

  it("refuses a signed expiry further out than a preview lasts (a cookie signed by a later clock)", () => {
    const early = NOW - 2 * PREVIEW_MAX_AGE_SECONDS * 1000;
    expect(verifyPreviewCookie(signPreviewCookie(SECRET, SCOPE, NOW), SECRET, early)).toBeNull();
  });

  it("is read from a Cookie header among others", () => {
    const value = signPreviewCookie(SECRET, SCOPE, NOW);
    const http = cookieNames(false);
    expect(previewCookieOf(`a=1; site_preview=${value}; b=2`, http)).toBe(value);
    expect(previewCookieOf("a=1; xsite_preview=1", http)).toBeUndefined();
    expect(previewCookieOf(null, http)).toBeUndefined();
    const now = signPreviewCookie(SECRET, SCOPE);
    const request = new Request("http://site.test/company", { headers: { cookie: `site_preview=${now}` } });
    expect(isPreviewRequest(request, SECRET, "http://site.test", "/company")).toBe(true);
    expect(isPreviewRequest(request, undefined, "http://site.test", "/company")).toBe(false);
    expect(isPreviewRequest(new Request("http://site.test/company"), SECRET, "http://site.test", "/company")).toBe(
      false,
    );
  });

  it("on https, is read only under its __Host- name: a plain one a sibling subdomain planted is none", () => {
    const now = signPreviewCookie(SECRET, SCOPE);
    const withCookie = (cookie: string) => new Request("https://www.example.com/", { headers: { cookie } });
    const https = "https://www.example.com";
    expect(isPreviewRequest(withCookie(`__Host-site_preview=${now}`), SECRET, https, "/company")).toBe(true);
    for (const planted of [`site_preview=${now}`, `__Secure-site_preview=${now}`]) {
      expect(isPreviewRequest(withCookie(planted), SECRET, https, "/company"), planted).toBe(false);
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
    const [draft, publishedCleared] = previewCookies({ draft: SCOPE }, SECRET, https, NOW);
    expect(draft).toMatch(
      /^__Host-site_preview=[\w-]+\.[0-9a-z]+\.[\w-]{43}; Max-Age=1800; Path=\/; HttpOnly; Secure; Partitioned; SameSite=None$/,
    );
    expect(publishedCleared).toBe(
      "__Host-site_preview_published=; Max-Age=0; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; Secure; Partitioned; SameSite=None",
    );
    const [draftCleared, published] = previewCookies("published", SECRET, https, NOW);
    expect(draftCleared).toBe(
      "__Host-site_preview=; Max-Age=0; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; Secure; Partitioned; SameSite=None",
    );
    expect(published).toBe(
      "__Host-site_preview_published=1; Max-Age=1800; Path=/; HttpOnly; Secure; Partitioned; SameSite=None",
    );
    // On http (development) the plain names; http://localhost keeps Secure cookies, so these are Secure too.
    expect(previewCookies({ draft: SCOPE }, SECRET, "http://localhost:3000", NOW)[0]).toMatch(
      /^site_preview=[\w-]+\..*; Secure;/,
    );
    expect(previewCookies("published", SECRET, "http://127.0.0.1:3000", NOW)).toEqual([
      "site_preview=; Max-Age=0; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax",
      "site_preview_published=1; Max-Age=1800; Path=/; HttpOnly; SameSite=Lax",
    ]);
    expect(previewCookies("none", "", https, NOW).every((cookie) => cookie.includes("; Max-Age=0;"))).toBe(true);
  });
});
