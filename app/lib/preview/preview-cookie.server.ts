import { cookieNamesFor, type CookieNames } from "../cookie-names.ts";
import { cookieValueOf, setCookieHeader, type CookieAttributes } from "../cookies.server.ts";
import { signValue, verifyValue } from "../signed-value.server.ts";

/**
 * The preview cookie: the payload `draft` with its expiry, signed by the site's one signed-value
 * helper (app/lib/signed-value.server.ts: `<payload>.<expiry>.<HMAC-SHA256>`, key derived from
 * CMS_PREVIEW_SECRET by HKDF for the purpose `preview/v1`). Nobody without the secret can make
 * one, and one that leaks stops working at its expiry (1 h). Checked on every render that reads
 * drafts (app/routes/cms-page.tsx). docs/decisions/0015-draft-preview.md says why a signed cookie
 * and why these attributes.
 */

/** How long a preview lasts after the admin opened it (seconds). */
export const PREVIEW_MAX_AGE_SECONDS = 60 * 60;

const PAYLOAD = "draft";

/** A cookie value valid until now + PREVIEW_MAX_AGE_SECONDS. */
export function signPreviewCookie(secret: string, nowMs = Date.now()): string {
  return signValue(secret, "preview/v1", PAYLOAD, nowMs + PREVIEW_MAX_AGE_SECONDS * 1000);
}

/**
 * Whether `value` is a preview cookie this secret signed and that has not expired, nor expires
 * later than a preview lasts (signed by a clock ahead of this one).
 */
export function verifyPreviewCookie(value: string | undefined, secret: string, nowMs = Date.now()): boolean {
  const verified = verifyValue(secret, "preview/v1", value, nowMs);
  return verified?.payload === PAYLOAD && verified.expiresAt <= nowMs + PREVIEW_MAX_AGE_SECONDS * 1000;
}

/** The preview cookie's value in a Cookie header (under the name in use: `__Host-` on https), if any. */
export function previewCookieOf(cookieHeader: string | null | undefined, names: CookieNames): string | undefined {
  return cookieValueOf(cookieHeader, names.preview);
}

/** Whether the request carries a valid preview cookie: the render shows drafts. */
export function isPreviewRequest(request: Request, secret: string | undefined, publicUrl: string): boolean {
  if (!secret) return false;
  return verifyPreviewCookie(previewCookieOf(request.headers.get("cookie"), cookieNamesFor(publicUrl)), secret);
}

/**
 * The cookie's attributes. The CMS admin shows the site in an iframe: when the admin is another
 * site, a cookie set and read there must be `SameSite=None; Secure` (and `Partitioned`, so
 * browsers that block third-party cookies keep it, in the admin's partition). Browsers keep
 * Secure cookies only from https, and from http://localhost. Any other http address (a local
 * test on 127.0.0.1) gets `SameSite=Lax`: preview then works when the admin is on the same site.
 * On https the names are `__Host-` (app/lib/cookie-names.ts): `Path=/`, `Secure` and no `Domain`,
 * which that prefix requires, are always so here.
 */
export function previewCookieAttributes(publicUrl: string): CookieAttributes {
  const url = new URL(publicUrl);
  const secureContext = url.protocol === "https:" || url.hostname === "localhost";
  return secureContext
    ? { path: "/", httpOnly: true, sameSite: "none", secure: true, partitioned: true }
    : { path: "/", httpOnly: true, sameSite: "lax", secure: false };
}

const LIVE = { maxAge: PREVIEW_MAX_AGE_SECONDS };
const EXPIRED = { maxAge: 0, expires: new Date(0) };

/**
 * The Set-Cookie headers that put a browser in a preview mode: `draft` (the signed cookie; pages
 * show drafts), `published` (the admin's Published tab: the draft cookie cleared, pages published
 * but still framable by the admin, docs/decisions/0015-draft-preview.md), `none` (both cleared).
 */
export function previewCookies(
  mode: "draft" | "published" | "none",
  secret: string,
  publicUrl: string,
  nowMs = Date.now(),
): string[] {
  const attributes = previewCookieAttributes(publicUrl);
  const { preview, publishedView } = cookieNamesFor(publicUrl);
  return [
    mode === "draft"
      ? setCookieHeader(preview, signPreviewCookie(secret, nowMs), attributes, LIVE)
      : setCookieHeader(preview, "", attributes, EXPIRED),
    mode === "published"
      ? setCookieHeader(publishedView, "1", attributes, LIVE)
      : setCookieHeader(publishedView, "", attributes, EXPIRED),
  ];
}
