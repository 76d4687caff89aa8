"use strict";

const { ensureEnv } = require("../scripts/ensure-env");

module.exports = ({ env }) => {
  // Dev: generate missing secrets into cms/.env. Production: throw if any is missing.
  ensureEnv({ quiet: true });
  return {
    host: env("HOST", "127.0.0.1"),
    port: env.int("PORT", 1337),
    url: env("PUBLIC_URL", ""),
    proxy: env.bool("IS_PROXIED", false),
    app: {
      keys: env.array("APP_KEYS"),
    },
    // Where uploads are written (<public>/uploads) and served from. Tests give each database its own.
    dirs: { public: env("CMS_PUBLIC_DIR", "./public") },
  };
};
