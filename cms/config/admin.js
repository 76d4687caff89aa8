"use strict";

const { normaliseClientUrl } = require("../src/plugins/accounts/server/services/auth-settings/settings");
const { allowedOrigins, createPreviewHandler, previewSettings } = require("../src/preview");

module.exports = ({ env }) => {
  // The one place the preview's environment is read; CLIENT_URL normalised as for the plugins.
  const preview = previewSettings({
    clientUrl: normaliseClientUrl(env("CLIENT_URL", "")),
    secret: env("CMS_PREVIEW_SECRET", ""),
    production: env("NODE_ENV", "") === "production",
  });
  return {
    // SERVE_ADMIN=false skips the admin panel: `strapi start` then needs no `strapi build` (used by tests).
    serveAdminPanel: env.bool("SERVE_ADMIN", true),
    auth: {
      secret: env("ADMIN_JWT_SECRET"),
    },
    // Strapi's admin login limit: 5 per 5 minutes per address, path and IP (its own default). The
    // end-to-end set-up raises it: every failed test gets a new Playwright worker, which logs in again.
    rateLimit: { interval: { min: 5 }, max: env.int("ADMIN_LOGIN_RATE_LIMIT_MAX", 5) },
    apiToken: {
      salt: env("API_TOKEN_SALT"),
    },
    transfer: {
      token: {
        salt: env("TRANSFER_TOKEN_SALT"),
      },
    },
    secrets: {
      encryptionKey: env("ENCRYPTION_KEY"),
    },
    // The Preview tab: the site's draft page in an iframe (src/preview/, docs/cms-contract.md "Preview").
    // Off in production without CMS_PREVIEW_SECRET. allowedOrigins is added to the admin's CSP frame-src.
    preview: {
      enabled: preview !== null,
      config: {
        allowedOrigins: allowedOrigins(preview),
        handler: createPreviewHandler(() => global.strapi, preview),
      },
    },
    flags: {
      nps: env.bool("FLAG_NPS", false),
      promoteEE: env.bool("FLAG_PROMOTE_EE", false),
    },
  };
};
