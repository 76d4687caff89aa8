import path from "node:path";

import { ensureAdminBuild } from "./cms-server.ts";

/**
 * `tsx tests/support/ensure-admin-build.ts <log file>`: builds the Strapi admin UI (cms/build)
 * unless it is current, as the end-to-end setup would. scripts/test-all.sh runs it in the
 * background while the other tests run, so the end-to-end setup finds it built.
 */
const logFile = path.resolve(process.argv[2] ?? "cms-admin-build.log");
const started = Date.now();
const { built, ms } = ensureAdminBuild(logFile);
console.log(
  built
    ? `[admin build] built the Strapi admin UI (cms/build) in ${Math.round(ms / 1000)} s (log: ${logFile})`
    : `[admin build] cms/build is current, nothing to build (${Date.now() - started} ms)`,
);
