"use strict";

const { extendSessionCheck } = require("./session-check");
const { extendSignInTiming } = require("./sign-in-timing");
const { extendTwoFactor } = require("./two-factor-fields");
const { extendTwoFactorSignIn } = require("./two-factor-sign-in");
const { extendEmailChange } = require("./email-change-fields");
const { extendHiddenAccountFields } = require("./hidden-account-fields");
const { extendResetLinkExpiry } = require("./reset-link-expiry");

/**
 * Extension of the users-permissions plugin (Strapi loads this file itself): Strapi's sessions
 * (refresh mode) checked on every access, with the project's claims and the writes that end every
 * session (./session-check.js), and the user's private two-factor fields (./two-factor-fields.js);
 * the pending email change (./email-change-fields.js); a password sign-in that spends the same time
 * for every address (./sign-in-timing.js); with two-factor on, the password alone gives a JWT good for
 * the code check only (./two-factor-sign-in.js); reset links that expire (./reset-link-expiry.js). None of the added fields shows in the admin panel
 * (./hidden-account-fields.js, applied last: it hides every field the others added).
 */
module.exports = (plugin) =>
  extendHiddenAccountFields(
    extendResetLinkExpiry(
      extendSignInTiming(extendEmailChange(extendTwoFactorSignIn(extendTwoFactor(extendSessionCheck(plugin))))),
    ),
  );
