"use strict";

const { parseMasterKey } = require("../services/two-factor/secret-box");

/**
 * The plugin's configuration, read once at start: cms/config/plugins.js reads the environment
 * and passes it here (accounts.config); nothing in the plugin reads process.env.
 *
 * - clientUrl: the site (CLIENT_URL), without a trailing slash; clientUrlSet: whether CLIENT_URL
 *   was set (the auth settings follow it on every start only then).
 * - siteName: SITE_NAME (mails, the authenticator app's issuer); "" for the default, "Acme".
 * - emailFrom: the sender of the auth mails (EMAIL_FROM, else "<site> <no-reply@<host>>");
 *   emailFromSet: whether EMAIL_FROM was set.
 * - emailConfirmation: CMS_EMAIL_CONFIRMATION, true / false, or null when unset.
 * - oauthSyncSecret: CMS_OAUTH_SYNC_SECRET; empty: POST /api/oauth-sync answers 503.
 * - accountApiSecret: CMS_ACCOUNT_API_SECRET; empty: /api/auth and /api/connect answer anyone
 *   (logged once; docs/security.md, finding 24).
 * - resetLinkTtlSeconds: how long a password-reset link works (CMS_RESET_LINK_TTL_SECONDS).
 * - freshSignInSeconds: how recent a provider sign-in must be for an account without a password
 *   to be deleted or change its email (CMS_FRESH_SIGN_IN_SECONDS, 10 to 3600).
 * - twoFactorEncryptionKey: TWO_FACTOR_ENCRYPTION_KEY (32 bytes, hex or base64), else the
 *   two-factor keys are derived from encryptionKey (ENCRYPTION_KEY, Strapi's own).
 * - warnMailToFiles: production without SMTP_HOST (the auth mails are written to files): logged.
 */
const DEFAULTS = Object.freeze({
  clientUrl: "http://localhost:3000",
  clientUrlSet: false,
  siteName: "",
  emailFrom: "Acme <no-reply@localhost>",
  emailFromSet: false,
  emailConfirmation: null,
  oauthSyncSecret: "",
  accountApiSecret: "",
  resetLinkTtlSeconds: 60 * 60,
  freshSignInSeconds: 5 * 60,
  twoFactorEncryptionKey: "",
  encryptionKey: "",
  warnMailToFiles: false,
});

const MIN_ACCOUNT_API_SECRET = 16;

function validator(config) {
  let url;
  try {
    url = new URL(config.clientUrl);
  } catch {
    throw new Error(`clientUrl "${config.clientUrl}" is not a URL (CLIENT_URL, e.g. https://www.example.com)`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error("clientUrl must be an http(s) URL");
  if (config.clientUrl.endsWith("/")) throw new Error("clientUrl must not end with /");
  for (const key of [
    "siteName",
    "emailFrom",
    "oauthSyncSecret",
    "accountApiSecret",
    "twoFactorEncryptionKey",
    "encryptionKey",
  ]) {
    if (typeof config[key] !== "string") throw new Error(`${key} must be a string`);
  }
  for (const key of ["clientUrlSet", "emailFromSet", "warnMailToFiles"]) {
    if (typeof config[key] !== "boolean") throw new Error(`${key} must be true or false`);
  }
  if (config.emailConfirmation !== null && typeof config.emailConfirmation !== "boolean") {
    throw new Error("emailConfirmation must be true, false or null (CMS_EMAIL_CONFIRMATION)");
  }
  const secret = config.accountApiSecret;
  if (secret !== "" && (secret.trim() !== secret || secret.length < MIN_ACCOUNT_API_SECRET)) {
    throw new Error(
      `accountApiSecret must be at least ${MIN_ACCOUNT_API_SECRET} characters, without surrounding spaces ` +
        "(CMS_ACCOUNT_API_SECRET, the site's too)",
    );
  }
  if (!Number.isInteger(config.resetLinkTtlSeconds) || config.resetLinkTtlSeconds < 0) {
    throw new Error("resetLinkTtlSeconds must be a whole number of seconds >= 0 (CMS_RESET_LINK_TTL_SECONDS)");
  }
  const fresh = config.freshSignInSeconds;
  if (!Number.isInteger(fresh) || fresh < 10 || fresh > 3600) {
    throw new Error("freshSignInSeconds must be a whole number of seconds from 10 to 3600 (CMS_FRESH_SIGN_IN_SECONDS)");
  }
  if (config.twoFactorEncryptionKey !== "") parseMasterKey(config.twoFactorEncryptionKey);
  else if (config.encryptionKey.trim() === "") {
    throw new Error(
      "two-factor authentication needs twoFactorEncryptionKey or encryptionKey (TWO_FACTOR_ENCRYPTION_KEY or ENCRYPTION_KEY)",
    );
  }
}

module.exports = { default: DEFAULTS, validator, DEFAULTS };
