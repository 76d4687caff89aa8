"use strict";

const { sameSecret } = require("../../utils/secret");

/**
 * The account API guard (docs/security.md, finding 24): with CMS_ACCOUNT_API_SECRET set, the
 * users-permissions routes under /api/auth and /api/connect (sign-in, register, forgot/reset/
 * change password, email confirmation, Strapi's own provider sign-in) answer only a request
 * that carries `X-Site-Secret: <that secret>`, that is the site's server. Everyone else gets 403
 * SITE_ONLY, so passwords can only be guessed through the site, with its per-account lockout,
 * known devices and bot check. The JWT routes (/api/users/me, /api/account-sessions,
 * /api/account-two-factor) are not touched. Pure functions here; the Koa middleware is
 * ./index.js, registered in cms/config/middlewares.js as plugin::accounts.account-api-guard.
 */

const HEADER = "x-site-secret";

/**
 * A request path the way a lenient router could read it: percent-escapes decoded (repeatedly,
 * so `%252F` too), backslashes as slashes, runs of slashes as one, `.` and `..` segments
 * resolved, lower case, no trailing slash. Only ever used to decide whether to guard.
 */
function normalizePath(rawPath) {
  let path = typeof rawPath === "string" ? rawPath : "";
  for (let round = 0; round < 5; round += 1) {
    const decoded = path.replace(/%([0-9a-f]{2})/gi, (_, hex) => String.fromCharCode(parseInt(hex, 16)));
    if (decoded === path) break;
    path = decoded;
  }
  path = path.split(/[?#]/)[0].replace(/\\/g, "/").toLowerCase();
  const segments = [];
  for (const segment of path.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") segments.pop();
    else segments.push(segment.replace(/[\s\0]+$/g, ""));
  }
  return `/${segments.join("/")}`;
}

/** Whether a path is one of the users-permissions account routes only the site may call. */
function isSiteOnlyPath(rawPath) {
  const path = normalizePath(rawPath);
  return /^\/api\/(auth|connect)(\/|$)/.test(path);
}

/**
 * Whether a request may go on: "open" when no secret is configured or the path is not guarded,
 * "ok" with the right X-Site-Secret, "refused" otherwise (missing or wrong: one answer). The
 * header is compared in constant time (SHA-256 of both, crypto.timingSafeEqual).
 *
 * @param {{ path: string, header: string | string[] | undefined, secret: string | undefined }} request
 * @returns {'open' | 'ok' | 'refused'}
 */
function checkAccountApiRequest({ path, header, secret }) {
  if (secret === undefined || !isSiteOnlyPath(path)) return "open";
  const given = Array.isArray(header) ? header[0] : header;
  return sameSecret(typeof given === "string" ? given.trim() : "", secret) ? "ok" : "refused";
}

/** The refusal's message and code (a 403 ForbiddenError, details.code SITE_ONLY). */
const SITE_ONLY_MESSAGE =
  "This account route answers the site's server only (X-Site-Secret). Sign in, register or reset a password " +
  "on the website.";
const SITE_ONLY_CODE = "SITE_ONLY";

const UNSET_WARNING =
  "[account-api-guard] CMS_ACCOUNT_API_SECRET is not set: anyone who reaches this CMS can call /api/auth/* " +
  "(password guessing past the site's lockout, docs/security.md finding 24). Set the same value on the site and here.";

module.exports = {
  HEADER,
  SITE_ONLY_MESSAGE,
  SITE_ONLY_CODE,
  UNSET_WARNING,
  checkAccountApiRequest,
  isSiteOnlyPath,
  normalizePath,
};
