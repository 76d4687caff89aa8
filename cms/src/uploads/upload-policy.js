"use strict";

/**
 * What the media library accepts: images, video, audio and PDF, and nothing that a browser could
 * run (HTML, SVG, JavaScript, XML). The local provider serves uploads from the CMS's own origin,
 * where the admin's refresh cookie lives: an uploaded page with a script would act as whoever opens
 * it (docs/security.md, finding 41; docs/decisions/0031-preview-links-and-upload-policy.md).
 *
 * Two checks, both on every upload and replace:
 * - Strapi's own (config/plugins.js → upload.config.security, these two lists): the declared type
 *   and the extension's type must not be refused, and what file-type recognises in the content
 *   must be accepted. It cannot see text formats: an HTML body named x.png, declared image/png,
 *   passes it as an image (file-type knows binary signatures only);
 * - ours (refusalOf, run by src/extensions/upload/strapi-server.js): the content itself must be
 *   recognised as an accepted type. Every accepted type has a binary signature, so anything
 *   file-type cannot name (text: HTML, SVG, script, XML, with or without a BOM) is refused.
 */

/** Strapi's allow list (its patterns: `*` is any run of characters). */
const ACCEPTED_TYPES = ["image/*", "video/*", "audio/*", "application/pdf"];

/**
 * Strapi's deny list: wins over the allow list, and is checked against the declared type and the
 * extension's type too (a real PNG named x.html would be served as text/html by its extension).
 * No `+` in a pattern: Strapi turns a pattern into a regular expression without escaping it.
 */
const REFUSED_TYPES = ["text/*", "*xml", "*javascript", "*ecmascript", "application/x-sh"];

const EDITOR_HINT =
  "The media library accepts images (not SVG), video, audio and PDF files only: HTML, SVG, " +
  "JavaScript and XML files could run scripts on the CMS and are refused.";

function typeMatches(type, patterns) {
  const wanted = String(type).toLowerCase();
  return patterns.some((pattern) => {
    const source = pattern.toLowerCase().split("*").map(escapeRegExp).join(".*");
    return new RegExp(`^${source}$`).test(wanted);
  });
}

function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Whether a content type may be stored (and so served) by the CMS. */
function isAcceptedType(type) {
  return Boolean(type) && typeMatches(type, ACCEPTED_TYPES) && !typeMatches(type, REFUSED_TYPES);
}

/** The type file-type recognises in the file's first bytes, or undefined (text, or unknown). */
async function sniffedType(file) {
  const filePath = file.filepath ?? file.path;
  if (!filePath) return undefined;
  // file-type is ESM only.
  const { fileTypeFromFile } = await import("file-type");
  return (await fileTypeFromFile(filePath))?.mime;
}

/**
 * Why this uploaded file (a formidable file: `filepath`, `originalFilename`) must not be stored, in
 * words an editor can act on; null when its content is an accepted type.
 */
async function refusalOf(file) {
  const name = file.originalFilename ?? file.name ?? "The file";
  const type = await sniffedType(file);
  if (isAcceptedType(type)) return null;
  const found = type ? `its content is ${type}` : "its content is not a recognised image, video, audio or PDF file";
  return `“${name}” was not uploaded: ${found}. ${EDITOR_HINT}`;
}

module.exports = { ACCEPTED_TYPES, REFUSED_TYPES, EDITOR_HINT, isAcceptedType, refusalOf, typeMatches };
