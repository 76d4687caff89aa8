import { signValue, verifyValue } from "../signed-value.server.ts";

/**
 * The signed link the CMS's Preview handler makes (cms/src/preview/signed-link.js), checked here:
 * `?path=…&locale=…&status=…&type=…&document=…&expires=<Unix ms>&signature=…`. The signature is
 * the site's signed value (app/lib/signed-value.server.ts: HMAC-SHA256, key derived from
 * CMS_PREVIEW_SECRET by HKDF for `preview-link/v1`, compared in constant time) over the JSON of
 * [type, document, path, locale, status] and the expiry. So a link opens the page it was made for,
 * in its locale and status, until it expires: another path, document, locale or status, or a later
 * expiry, breaks the signature. The secret itself never leaves the two servers
 * (docs/security.md, finding 42).
 */

const PURPOSE = "preview-link/v1";
/** No link opens a preview for longer than a preview lasts (the CMS makes them for 10 minutes). */
export const PREVIEW_LINK_MAX_MS = 60 * 60 * 1000;

export interface PreviewLinkFields {
  type: string;
  document: string;
  path: string;
  locale: string;
  status: string;
}

export type PreviewLinkCheck =
  { ok: true; fields: PreviewLinkFields } | { ok: false; status: 401 | 410; message: string };

const FIELDS = ["type", "document", "path", "locale", "status"] as const;
const DECIMAL = /^[1-9][0-9]{0,15}$/;

const payloadOf = (fields: PreviewLinkFields) => JSON.stringify(FIELDS.map((name) => fields[name]));
const encode = (text: string) => Buffer.from(text, "utf8").toString("base64url");

/** The query of a link for `fields`, valid until `expiresAt`: what the CMS makes (tests use it). */
export function signPreviewLink(secret: string, fields: PreviewLinkFields, expiresAt: number): URLSearchParams {
  const token = signValue(secret, PURPOSE, payloadOf(fields), expiresAt);
  const signature = token.slice(token.lastIndexOf(".") + 1);
  return new URLSearchParams({ ...fields, expires: String(expiresAt), signature });
}

const REOPEN = "Open the preview again from the CMS (reload the admin page first) to get a new link.";

/** Whether `params` is a link the CMS signed with `secret` that has not expired at `nowMs`. */
export function checkPreviewLink(params: URLSearchParams, secret: string, nowMs = Date.now()): PreviewLinkCheck {
  if (params.has("secret")) {
    return {
      ok: false,
      status: 401,
      message: `Preview links no longer carry the secret; this one comes from an older CMS. ${REOPEN}`,
    };
  }
  const expires = params.get("expires") ?? "";
  const signature = params.get("signature");
  if (!signature || !DECIMAL.test(expires) || !Number.isSafeInteger(Number(expires))) {
    return { ok: false, status: 401, message: `This preview link is not signed. ${REOPEN}` };
  }
  const field = (name: keyof PreviewLinkFields) => params.get(name) ?? "";
  const fields = {
    type: field("type"),
    document: field("document"),
    path: field("path"),
    locale: field("locale"),
    status: field("status"),
  };
  const expiresAt = Number(expires);
  const token = `${encode(payloadOf(fields))}.${expiresAt.toString(36)}.${signature}`;
  // The signature first, whatever the time (verified as of the epoch); only a genuine link is told it expired.
  if (!verifyValue(secret, PURPOSE, token, 0)) {
    return {
      ok: false,
      status: 401,
      message: `This preview link was changed or was not made by this site's CMS (CMS_PREVIEW_SECRET must be the same on both). ${REOPEN}`,
    };
  }
  if (expiresAt <= nowMs) return { ok: false, status: 410, message: `This preview link has expired. ${REOPEN}` };
  if (expiresAt - nowMs > PREVIEW_LINK_MAX_MS) {
    return { ok: false, status: 401, message: `This preview link lasts longer than a preview may. ${REOPEN}` };
  }
  return { ok: true, fields };
}
