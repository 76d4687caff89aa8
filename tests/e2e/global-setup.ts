import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import getPort from "../support/free-port.ts";

import { E2E_PROJECTS, e2eAppPort } from "../../playwright.config.ts";
import { projectRoot, startApp } from "../support/app-server.ts";
import { ensureAdminBuild, startCms, type CmsHandle } from "../support/cms-server.ts";
import { e2eEnvKey } from "../support/e2e-env.ts";
import { startOidcProvider } from "../support/oidc-provider.ts";
import { TEST_ACCOUNT_API_SECRET } from "../support/site-secret.ts";
import { startVarnish } from "../support/varnish.ts";

const REVALIDATE_SECRET = "e2e-revalidate-secret-0123456789";
const OAUTH_SYNC_SECRET = "e2e-oauth-sync-secret-0123456789abcdef";
const CDN_PURGE_SECRET = "e2e-cdn-purge-secret-0123456789abcdef";
const PREVIEW_SECRET = "e2e-preview-secret-0123456789abcdef";
const OIDC_PROVIDER_ID = "local-oidc";

/**
 * Builds the site (`npm run build`, unless E2E_SITE_BUILT=1) and the Strapi admin UI (when
 * cms/build is missing or out of date), and starts, for the whole run, one stack per project
 * (playwright.config.ts: the two projects run side by side): a freshly seeded Strapi (mail to
 * files; with its admin UI for js-on, the only project of the admin specs), a local OpenID
 * Connect provider, a Varnish and the production site, all on free ports. Stops them all
 * afterwards. scripts/test-all.sh builds both before (the admin UI in the background while the
 * other tests run) and sets E2E_SITE_BUILT=1, so neither is built twice.
 */
export default async function globalSetup() {
  const started = Date.now();
  const dir = mkdtempSync(path.join(tmpdir(), "e2e-cms-"));
  // tests/e2e/admin-button.spec.ts clicks through the real admin UI.
  const adminBuild = ensureAdminBuild(path.join(dir, "cms-build.log"));
  if (adminBuild.built)
    console.log(`[e2e] built the Strapi admin UI (cms/build) in ${Math.round(adminBuild.ms / 1000)} s`);
  // What `npm start` runs needs both halves of the build: build/server (the app) and build/server-entry.mjs.
  if (process.env.E2E_SITE_BUILT !== "1") {
    execFileSync("npm", ["run", "--silent", "build"], { cwd: projectRoot, stdio: "ignore" });
  }
  const stacks = await Promise.allSettled(
    E2E_PROJECTS.map((project) => startStack(project, path.join(dir, project), { serveAdmin: project === "js-on" })),
  );
  const stops = stacks.flatMap((stack) => (stack.status === "fulfilled" ? [stack.value] : []));
  const failed = stacks.find((stack) => stack.status === "rejected");
  if (failed) {
    for (const stop of stops) await stop();
    throw failed.reason;
  }
  console.log(`[e2e] set-up done in ${Math.round((Date.now() - started) / 1000)} s`);
  return async () => {
    for (const stop of stops) await stop();
  };
}

/** One project's stack; its values go to the environment under the project's suffix (e2eEnv). */
async function startStack(project: string, dir: string, { serveAdmin }: { serveAdmin: boolean }) {
  const appUrl = `http://127.0.0.1:${e2eAppPort(project)}`;
  const mailDir = path.join(dir, "mail");
  mkdirSync(mailDir, { recursive: true });
  const oidc = await startOidcProvider({
    port: await getPort(),
    redirectUri: `${appUrl}/api/auth/callback/${OIDC_PROVIDER_ID}`,
  });
  // A real Varnish in front of the site, purged through the site's /api/cdn-purge (the admin's
  // Purge CDN action: tests/e2e/admin-button.spec.ts). Nothing else goes through it.
  const cdn = await startVarnish({ port: await getPort(), backendPort: e2eAppPort(project) });
  let cms: CmsHandle;
  try {
    cms = await startCms({
      port: await getPort(),
      dbFile: path.join(dir, "e2e.db"),
      fresh: true,
      serveAdmin,
      logFile: path.join(dir, "cms.log"),
      env: {
        CLIENT_URL: appUrl,
        CMS_MAIL_DIR: mailDir,
        CMS_OAUTH_SYNC_SECRET: OAUTH_SYNC_SECRET,
        CMS_REVALIDATE_SECRET: REVALIDATE_SECRET,
        CMS_CDN_PURGE_SECRET: CDN_PURGE_SECRET,
        CMS_PREVIEW_SECRET: PREVIEW_SECRET,
        // The CMS's /api/auth/* answers the site only (security finding 24); specs add SITE_SECRET_HEADERS.
        CMS_ACCOUNT_API_SECRET: TEST_ACCOUNT_API_SECRET,
        // One failed test would otherwise use up the admin logins of those after it (cms/config/admin.js).
        ADMIN_LOGIN_RATE_LIMIT_MAX: "100",
        // An OAuth-only account re-authenticates by a provider sign-in this recent (default 5 minutes):
        // short, so that tests/e2e/auth-account-changes.spec.ts sees one grow too old in seconds.
        CMS_FRESH_SIGN_IN_SECONDS: "20",
        // The scheduler ticks every second (default: every minute): tests/e2e/scheduled-publishing.spec.ts
        // schedules an article seconds ahead and waits for it, not for a minute.
        CMS_SCHEDULE_CRON: "* * * * * *",
      },
    });
  } catch (error) {
    await oidc.stop();
    await cdn.stop();
    throw error;
  }
  try {
    const app = await startApp({
      port: e2eAppPort(project),
      env: {
        APP_PUBLIC_URL: appUrl,
        CMS_URL: cms.url,
        CMS_REST_READONLY_API_KEY: cms.token,
        CMS_REVALIDATE_SECRET: REVALIDATE_SECRET,
        CMS_OAUTH_SYNC_SECRET: OAUTH_SYNC_SECRET,
        CMS_CDN_PURGE_SECRET: CDN_PURGE_SECRET,
        CMS_PREVIEW_SECRET: PREVIEW_SECRET,
        CMS_ACCOUNT_API_SECRET: TEST_ACCOUNT_API_SECRET,
        CDN_PROVIDER: "http",
        CDN_PURGE_URL: cdn.url,
        OIDC_ISSUER: oidc.issuer,
        OIDC_CLIENT_ID: oidc.clientId,
        OIDC_CLIENT_SECRET: oidc.clientSecret,
        OIDC_PROVIDER_ID,
        OIDC_PROVIDER_NAME: "Local OIDC",
        // Every test signs in from 127.0.0.1: the limit itself is tested in tests/integration.
        AUTH_RATE_LIMIT_MAX: "10000",
        // The same for the searches of the search and accessibility specs.
        SEARCH_RATE_LIMIT_MAX: "10000",
      },
    });
    const values = {
      E2E_CMS_URL: cms.url,
      E2E_CMS_TOKEN: cms.token,
      E2E_REVALIDATE_SECRET: REVALIDATE_SECRET,
      E2E_PREVIEW_SECRET: PREVIEW_SECRET,
      E2E_MAIL_DIR: mailDir,
      E2E_CDN_URL: cdn.url,
      // Where the CMS keeps uploaded files (tests/support/cms-server.ts): a spec puts a file there
      // as an older database would have it, past the upload check.
      E2E_CMS_UPLOADS_DIR: path.join(`${cms.dbFile}.public`, "uploads"),
    };
    for (const [name, value] of Object.entries(values)) process.env[e2eEnvKey(name, project)] = value;
    return async () => {
      await app.stop();
      await cms.stop();
      await oidc.stop();
      await cdn.stop();
    };
  } catch (error) {
    await cms.stop();
    await oidc.stop();
    await cdn.stop();
    throw error;
  }
}
