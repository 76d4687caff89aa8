"use strict";

const { createHmac, hkdfSync } = require("node:crypto");

/**
 * A preview link signs what it opens instead of carrying CMS_PREVIEW_SECRET (docs/security.md,
 * finding 42): the URL the Preview handler makes (`GET /content-manager/preview/url/:uid`, which
 * now answers only an admin who may read the document: ./read-permission.js) is read by editors'
 * browsers, and a secret in it let anybody who read one mint previews of everything, for as long
 * as the secret lived.
 *
 * The signature is the site's signed-value format (app/lib/signed-value.server.ts, which checks it
 * in app/lib/preview/preview-link.server.ts): HMAC-SHA256, keyed by HKDF-SHA256 of the secret for
 * the purpose `preview-link/v1`, over `<base64url of the JSON [type, document, path, locale,
 * status]>.<expiry in Unix ms, base 36>`. So a link opens one document's path in one locale and
 * status, until its expiry, and a change to any of them (another path, another document) breaks it.
 */

const PURPOSE = "preview-link/v1";

/**
 * How long a link opens a preview (docs/decisions/0031-preview-links-and-upload-policy.md): the
 * admin asks for the URL when the edit view opens and reuses it when the editor opens the preview
 * (Strapi's RTK Query cache), so it must outlive a usual edit; what it opens (the preview cookie,
 * for that one page) lasts 30 minutes anyway. A link read from a log or a history later is dead.
 */
const PREVIEW_LINK_LIFETIME_MS = 10 * 60 * 1000;

function macOf(secret, signed) {
  const key = Buffer.from(hkdfSync("sha256", secret, "", PURPOSE, 32));
  return createHmac("sha256", key).update(signed).digest("base64url");
}

/**
 * The query of a signed preview link: path, locale, status (what the site shows), type and
 * document (what it was made for), expires (Unix ms) and signature.
 */
function signedPreviewQuery(secret, { type, document, path, locale, status }, nowMs = Date.now()) {
  const fields = { type, document: document ?? "", path, locale: locale ?? "", status };
  const expires = nowMs + PREVIEW_LINK_LIFETIME_MS;
  const payload = JSON.stringify([fields.type, fields.document, fields.path, fields.locale, fields.status]);
  const signed = `${Buffer.from(payload, "utf8").toString("base64url")}.${expires.toString(36)}`;
  return new URLSearchParams({ ...fields, expires: String(expires), signature: macOf(secret, signed) });
}

module.exports = { signedPreviewQuery, PREVIEW_LINK_LIFETIME_MS };
