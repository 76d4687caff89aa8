"use strict";

/**
 * Strapi's Preview (config/admin.js → `preview`): the admin asks the handler for a front-end URL
 * per document, locale and status, and shows it in an iframe. The URL is the site's
 * `GET /api/preview?path=…&locale=…&status=…&type=…&document=…&expires=…&signature=…`
 * (docs/cms-contract.md, "Preview"): a link signed for that document, locale and status with a short
 * expiry (./signed-link.js), never the secret. The site checks it, sets its preview cookie and
 * redirects to the page.
 *
 * - a type with a `path` in its site-cache declaration (plugins/site-cache, revalidation/
 *   declarations.js: pages `{fullPath}`, articles `/blog/{slug}`, categories
 *   `/blog/category/{slug}`, and any type added so): that path, filled in from the document in that
 *   locale and status (`draft` or `published`; a type without drafts: `published`). So a new
 *   type with a path has a Preview button with nothing added here;
 * - navbar, footer (single types, no drafts): shown on every page, previewed on the locale's home page;
 * - anything else (redirects: `"preview": false`; authors: no path): no preview (null: the admin
 *   shows no Preview button).
 */

const { signedPreviewQuery } = require("./signed-link");

const SHOWN_ON_EVERY_PAGE = new Set(["api::navbar.navbar", "api::footer.footer"]);
/** The front end's development default is the same (app/lib/env.server.ts). */
const DEVELOPMENT_SECRET = "development-only-preview-secret";

/**
 * `{ clientUrl, secret }`, or null when preview is off (production without a secret). Its inputs
 * come from config/admin.js, the one place the preview's environment is read: `clientUrl` is
 * CLIENT_URL already normalised (the plugins get the same value), `secret` CMS_PREVIEW_SECRET.
 */
function previewSettings({ clientUrl, secret, production }) {
  const key = secret || (production ? "" : DEVELOPMENT_SECRET);
  return key ? { clientUrl, secret: key } : null;
}

/** The origins the admin's CSP must allow in `frame-src`: the site's (none when preview is off). */
function allowedOrigins(settings) {
  return settings ? [new URL(settings.clientUrl).origin] : [];
}

/** The site's preview URL for a document (type, documentId) shown at a path in a locale, signed. */
function previewUrl(settings, { type, documentId, path, locale, status }, nowMs = Date.now()) {
  const query = signedPreviewQuery(
    settings.secret,
    { type, document: documentId, path, locale, status: status === "published" ? "published" : "draft" },
    nowMs,
  );
  return `${settings.clientUrl}/api/preview?${query}`;
}

/** Which page of the site shows this document, or null; and the status to show it in. */
async function previewTarget(strapi, uid, { documentId, locale, status }) {
  if (SHOWN_ON_EVERY_PAGE.has(uid)) return { path: "/", status: "published" };
  // The site-cache plugin's declarations (read from the schemas at its start).
  const siteTypes = strapi.plugin("site-cache")?.service("site-types");
  const declaration = siteTypes?.declarationOf(uid);
  if (!declaration?.preview || !documentId) return null;
  const documents = strapi.documents(uid);
  const query = {
    documentId,
    locale: (declaration.localized && locale) || undefined,
    fields: [...declaration.pathFields],
  };
  if (!declaration.draftAndPublish) {
    const path = siteTypes.entryPath(uid, await documents.findOne(query));
    return path ? { path, status: "published" } : null;
  }
  const wanted = status === "published" ? "published" : "draft";
  // The published tab of a document whose published version is gone falls back to the draft's path.
  const found =
    (await documents.findOne({ ...query, status: wanted })) ?? (await documents.findOne({ ...query, status: "draft" }));
  const path = siteTypes.entryPath(uid, found);
  return path ? { path, status: wanted } : null;
}

/** The `preview.config.handler` of config/admin.js, for the settings of previewSettings(). */
function createPreviewHandler(getStrapi, settings) {
  return async (uid, params) => {
    if (!settings) return null;
    const target = await previewTarget(getStrapi(), uid, params);
    if (!target) return null;
    const { documentId, locale } = params;
    return previewUrl(settings, { type: uid, documentId, path: target.path, locale, status: target.status });
  };
}

module.exports = { allowedOrigins, createPreviewHandler, previewSettings, previewUrl, DEVELOPMENT_SECRET };
