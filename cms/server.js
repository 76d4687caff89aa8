"use strict";

// Starts the CMS without the Strapi CLI: `npm start` and the tests (tests/support/cms-server.ts)
// use it. cms/tsconfig.json must exist (without it `strapi develop`/`build` walk up to the front
// end's tsconfig.json), and when a tsconfig.json exists the CLI's `strapi start` insists on a
// TypeScript build in an outDir. This project is JavaScript and runs as is: distDir = appDir is
// exactly what `strapi start` does for a JavaScript project. SERVE_ADMIN=false skips the admin
// panel, so no `npm run build` is needed first.
process.chdir(__dirname); // Strapi reads .env and resolves paths from the working directory.

try {
  // Dev: generate missing secrets into cms/.env; production: a clear error if one is missing.
  require("./scripts/ensure-env").ensureEnv();
} catch (err) {
  console.error(err.message);
  process.exit(1);
}

const { createStrapi } = require("@strapi/strapi");
const { withStartLock } = require("./scripts/start-lock");

// createStrapi reads the configuration (and .env); the start itself (schema sync, bootstrap,
// seed) runs under the start lock on PostgreSQL: one instance at a time (scripts/start-lock.js).
const app = createStrapi({ appDir: __dirname, distDir: __dirname });
withStartLock(app.config.get("database"), () => app.start()).catch((err) => {
  console.error(err);
  process.exit(1);
});
