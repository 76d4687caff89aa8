"use strict";

const { allowedOrigins, createPreviewHandler, previewSettings } = require("../src/preview");

module.exports = ({ env }) => ({
  // SERVE_ADMIN=false skips the admin panel: `strapi start` then needs no `strapi build` (used by tests).
  serveAdminPanel: env.bool("SERVE_ADMIN", true),
  auth: {
    secret: env("ADMIN_JWT_SECRET"),
  },
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
    enabled: previewSettings() !== null,
    config: {
      allowedOrigins: allowedOrigins(),
      handler: createPreviewHandler(() => global.strapi),
    },
  },
  flags: {
    nps: env.bool("FLAG_NPS", false),
    promoteEE: env.bool("FLAG_PROMOTE_EE", false),
  },
});
