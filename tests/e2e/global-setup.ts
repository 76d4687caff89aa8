import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { E2E_APP_PORT } from "../../playwright.config.ts";
import { projectRoot, startApp } from "../support/app-server.ts";
import { startCms } from "../support/cms-server.ts";

const REVALIDATE_SECRET = "e2e-revalidate-secret-0123456789";

/** Builds the site, starts a freshly seeded Strapi and the production site; stops both after. */
export default async function globalSetup() {
  execFileSync(path.join(projectRoot, "node_modules/.bin/react-router"), ["build"], {
    cwd: projectRoot,
    stdio: "ignore",
  });
  const dir = mkdtempSync(path.join(tmpdir(), "e2e-cms-"));
  const cms = await startCms({ port: 3137, dbFile: path.join(dir, "e2e.db"), fresh: true, logFile: path.join(dir, "cms.log") });
  try {
    const app = await startApp({
      port: E2E_APP_PORT,
      env: {
        APP_PUBLIC_URL: `http://127.0.0.1:${E2E_APP_PORT}`,
        CMS_URL: cms.url,
        CMS_REST_READONLY_API_KEY: cms.token,
        CMS_REVALIDATE_SECRET: REVALIDATE_SECRET,
        // Every test signs in from 127.0.0.1: the limit itself is tested in tests/integration.
        AUTH_RATE_LIMIT_MAX: "10000",
      },
    });
    process.env.E2E_CMS_URL = cms.url;
    process.env.E2E_CMS_TOKEN = cms.token;
    process.env.E2E_REVALIDATE_SECRET = REVALIDATE_SECRET;
    return async () => {
      await app.stop();
      await cms.stop();
    };
  } catch (error) {
    await cms.stop();
    throw error;
  }
}
