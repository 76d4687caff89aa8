"use strict";

const { extensionPoints } = require("./extension-points");
const { extendSessionCheck } = require("./session-check");
const { extendTwoFactor } = require("./two-factor-fields");
const { extendTwoFactorSignIn } = require("./two-factor-sign-in");
const { extendEmailChange } = require("./email-change-fields");
const { extendSignInTiming } = require("./sign-in-timing");
const { extendResetLinkExpiry } = require("./reset-link-expiry");
const { extendHiddenAccountFields } = require("./hidden-account-fields");
const { extendRefusalCodes } = require("./refusal-codes");

/**
 * What the accounts plugin adds to users-permissions (run by ../register.js):
 * - Strapi's own sessions (refresh mode) checked on every access, the project's claims kept in
 *   the session, every session ended by the writes Strapi does not cover (an admin's new
 *   password, a block, the END_SESSIONS marker) and "sign out everywhere" voiding a pending
 *   change of email (./session-check.js);
 * - the user's private two-factor fields (./two-factor-fields.js); with two-factor on, the
 *   password alone gives a JWT good for the code check only (./two-factor-sign-in.js);
 * - the pending email change (./email-change-fields.js);
 * - a password sign-in that spends the same time for every address (./sign-in-timing.js);
 * - reset links that expire (./reset-link-expiry.js);
 * - a code of this plugin's on every refusal of the auth routes the site calls, never only
 *   Strapi's English (./refusal-codes.js; the outermost wrapper of the auth controller);
 * - none of the added fields in the admin panel (./hidden-account-fields.js, applied last: it
 *   hides every field the others added).
 * The JWT service is wrapped twice, in this order: the session check, then the two-factor one;
 * the session check's write guard runs before the email change's (it voids a pending change).
 *
 * @param {import("@strapi/strapi").Core.Strapi} strapi
 * @param {{ resetLinkTtlMs: number }} options  from the plugin's config
 */
function extendUsersPermissionsPlugin(strapi, { resetLinkTtlMs }) {
  const points = extensionPoints(strapi);
  extendSessionCheck(points);
  extendTwoFactor(points);
  extendTwoFactorSignIn(points);
  extendEmailChange(points);
  extendSignInTiming(points);
  extendResetLinkExpiry(points, { ttlMs: resetLinkTtlMs });
  extendRefusalCodes(points);
  extendHiddenAccountFields(points);
}

module.exports = { extendUsersPermissionsPlugin };
