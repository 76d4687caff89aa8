'use strict';

/**
 * `strapi start` for this JavaScript project (no compile step, no dist/).
 *
 * Why not the `strapi start` CLI: cms/tsconfig.json has to exist (without it `strapi develop`
 * and `strapi build` walk up and use the front end's tsconfig.json), and when a tsconfig.json
 * exists `strapi start` insists on a compiled outDir. Starting Strapi through its API with
 * distDir = appDir is exactly what `strapi start` does for a JavaScript project.
 *
 * Used by `npm start` and by tests/support/cms-server.ts. SERVE_ADMIN=false skips the admin
 * panel, so no `npm run build` is needed first.
 */
const path = require('node:path');

const root = path.resolve(__dirname, '..');
process.chdir(root); // Strapi reads .env and resolves paths from the working directory.

const { ensureEnv } = require('./ensure-env');

try {
  ensureEnv();
} catch (err) {
  console.error(err.message);
  process.exit(1);
}

const { createStrapi } = require('@strapi/strapi');

createStrapi({ appDir: root, distDir: root })
  .start()
  .catch((err) => {
    console.error(err);
    process.exit(1);
  });
