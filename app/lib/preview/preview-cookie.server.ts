import { cookieNamesFor, type CookieNames } from "../cookie-names.ts";
import { cookieValueOf, setCookieHeader, type CookieAttributes } from "../cookies.server.ts";
import { signValue, verifyValue } from "../signed-value.server.ts";

/**
 * The preview cookie: the address it opens drafts for (the page a signed preview link was made
 * for, in its locale: `/company`, `/de/company`), with the link's type and document, and its
 * expiry, signed by the site's one signed-value helper (app/lib/signed-value.server.ts:
 * `<payload>.<expiry>.<HMAC-SHA256>`, key derived from CMS_PREVIEW_SECRET by HKDF for the purpose
 * `preview/v2`). Nobody without the secret can make one; it shows drafts on that one address (and
 * its `.data` twin, which React Router's loaders see under the same pathname), every other page
 * renders as visitors see it (docs/security.md, finding 42); and one that leaks stops working at
 * its expiry. Checked on every render that reads drafts (app/lib/content-route.server.ts).
 * docs/decisions/0015-draft-preview.md says why a signed cookie, why these attributes and why
 * this lifetime.
 */

/**
 * How long a preview lasts after the admin opened it (seconds): the link's 10 minutes and an
 * editing session in the admin's preview pane after it (reloads, the draft/published tabs); every
 * new link the admin opens sets it afresh. Short, because the cookie is the key to a draft.
 */
export const PREVIEW_MAX_AGE_SECONDS = 30 * 60;

const PURPOSE = "preview/v2";

/** What a preview cookie was opened for: the address whose draft it shows, and the link's type and document. */
export interface PreviewScope {
  /** The page's address on this site, with its locale prefix (`/de/company`), as a request's pathname. */
  path: string;
  type: string;
  document: string;
}

/** An address in the one spelling a request's URL has (`/café` and `/caf%C3%A9` are one). */
export function canonicalPathname(path: string): string {
  return new URL(path, "http://site.invalid").pathname;
}

/** A cookie value for `scope`, valid until now + PREVIEW_MAX_AGE_SECONDS. */
export function signPreviewCookie(secret: string, scope: PreviewScope, nowMs = Date.now()): string {
  const payload = JSON.stringify([canonicalPathname(scope.path), scope.type, scope.document]);
  return signValue(secret, PURPOSE, payload, nowMs + PREVIEW_MAX_AGE_SECONDS * 1000);
}

/**
 * What `value` opens when it is a preview cookie this secret signed, that has not expired, nor
 * expires later than a preview lasts (signed by a clock ahead of this one); else null.
 */
export function verifyPreviewCookie(
  value: string | undefined,
  secret: string,
  nowMs = Date.now(),
): PreviewScope | null {
  const verified = verifyValue(secret, PURPOSE, value, nowMs);
  if (!verified || verified.expiresAt > nowMs + PREVIEW_MAX_AGE_SECONDS * 1000) return null;
  const fields = parsedJson(verified.payload);
  if (!Array.isArray(fields) || fields.length !== 3 || !fields.every((field) => typeof field === "string")) return null;
  const [path, type, document] = fields as [string, string, string];
  return { path, type, document };
}

/** JSON's value, or undefined for what is none (an older cookie's signed `draft`). */
function parsedJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The preview cookie's value in a Cookie header (under the name in use: `__Host-` on https), if any. */
export function previewCookieOf(cookieHeader: string | null | undefined, names: CookieNames): string | undefined {
  return cookieValueOf(cookieHeader, names.preview);
}

/** The valid preview cookie the request carries, if any: what it may show drafts of. */
export function previewScopeOf(request: Request, secret: string | undefined, publicUrl: string): PreviewScope | null {
  if (!secret) return null;
  return verifyPreviewCookie(previewCookieOf(request.headers.get("cookie"), cookieNamesFor(publicUrl)), secret);
}

/**
 * Whether this render shows drafts: the request carries a valid preview cookie opened for this
 * very address (`pathname`: the loader's `url`, where `.data` is already stripped; `request.url` keeps it). Any other page, with the
 * same cookie, is the published one.
 */
export function isPreviewRequest(
  request: Request,
  secret: string | undefined,
  publicUrl: string,
  pathname: string,
): boolean {
  const scope = previewScopeOf(request, secret, publicUrl);
  return scope !== null && scope.path === canonicalPathname(pathname);
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
 * The Set-Cookie headers that put a browser in a preview mode: `draft` (the signed cookie for
 * `scope`; that page shows its draft), `published` (the admin's Published tab: the draft cookie cleared, pages published
 * but still framable by the admin, docs/decisions/0015-draft-preview.md), `none` (both cleared).
 */
export function previewCookies(
  mode: { draft: PreviewScope } | "published" | "none",
  secret: string,
  publicUrl: string,
  nowMs = Date.now(),
): string[] {
  const attributes = previewCookieAttributes(publicUrl);
  const { preview, publishedView } = cookieNamesFor(publicUrl);
  return [
    typeof mode === "object"
      ? setCookieHeader(preview, signPreviewCookie(secret, mode.draft, nowMs), attributes, LIVE)
      : setCookieHeader(preview, "", attributes, EXPIRED),
    mode === "published"
      ? setCookieHeader(publishedView, "1", attributes, LIVE)
      : setCookieHeader(publishedView, "", attributes, EXPIRED),
  ];
}
