"use strict";

/**
 * Every answer under /uploads on the CMS's own origin is shown, never run (docs/security.md,
 * finding 41): the local upload provider serves files from the origin of the admin, whose refresh
 * cookie turns into an admin token. Files already stored, from before uploads were checked
 * (src/uploads/upload-policy.js), are covered too, since the headers do not depend on how a file got
 * there.
 * - `Content-Security-Policy: sandbox` (with nothing to load): a page opened there gets a unique
 *   origin, no scripts, no plugins, no forms; the site's copy of /uploads has the same policy
 *   (app/lib/cms/media-proxy.server.ts);
 * - `X-Content-Type-Options: nosniff`: a browser takes the type the CMS says, never guesses HTML;
 * - `Content-Disposition: attachment` for anything but an image, a video, audio or a PDF: it is
 *   saved, not opened. SVG counts as a document here (it can carry script), not as an image.
 *
 * Strapi's router matches /uploads/ case-insensitively, and its public-folder route decodes the
 * path (`/uploads%2Fx.html` is public/uploads/x.html): so the path is decoded and lower-cased
 * before it is compared.
 */

const UPLOADS_POLICY = "default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'; sandbox";
const SHOWN_INLINE = /^(image\/(?!svg)|video\/|audio\/|application\/pdf$)/;

function isUploadPath(rawPath) {
  let decoded;
  try {
    decoded = decodeURIComponent(rawPath);
  } catch {
    // Not decodable: nothing serves it as a file; headers on it cost nothing.
    return true;
  }
  return decoded
    .replace(/\\/g, "/")
    .replace(/\/{2,}/g, "/")
    .toLowerCase()
    .startsWith("/uploads/");
}

module.exports = () => {
  return async function uploadsSandbox(ctx, next) {
    if (!isUploadPath(ctx.path)) return next();
    try {
      await next();
    } finally {
      ctx.set("Content-Security-Policy", UPLOADS_POLICY);
      ctx.set("X-Content-Type-Options", "nosniff");
      if (!SHOWN_INLINE.test(ctx.response.type || "")) ctx.set("Content-Disposition", "attachment");
    }
  };
};
