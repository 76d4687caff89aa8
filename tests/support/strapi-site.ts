import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import getPort from "./free-port.ts";
import { afterAll, beforeAll, inject } from "vitest";

import { startApp, type AppHandle } from "./app-server.ts";
import { cmsTemplate, copyTemplate, startCms, type CmsHandle } from "./cms-server.ts";
import { TEST_ACCOUNT_API_SECRET } from "./site-secret.ts";
import { startVarnish } from "./varnish.ts";

export interface StrapiSite {
  cms: CmsHandle;
  app: AppHandle;
  /** The Varnish in front of the site: only with `cdn: true`. */
  cdn: Awaited<ReturnType<typeof startVarnish>>;
  /** A temporary folder for the test file (the CMS's database is in it); removed after. */
  dir: string;
  /**
   * Where the CMS's mail goes when it writes mail to files: `<dir>/mail` when the file's `cmsEnv`
   * sets CMS_MAIL_DIR to it, the shared CMS's folder with `sharedCms`.
   */
  mailDir: string;
  /**
   * Stops the CMS and starts it again: same port, same database, same environment; `whileStopped`
   * (given the database file) changes the database in between.
   */
  restartCms(whileStopped?: (dbFile: string) => void): Promise<void>;
  /** Stops the site and starts it again: same port, same environment (its memory is gone). */
  restartApp(): Promise<void>;
}

/**
 * The real Strapi (a fresh database in `dir`) and the production site against it, on free ports,
 * started before a test file and stopped after it, like standInSite. The CMS knows the site's
 * address (CLIENT_URL); the site reads the CMS with the token the seed wrote. `cmsEnv` (called
 * when the CMS starts, after the test file's own earlier beforeAll) and `appEnv` add to their
 * environments. `cdn: true` puts a real Varnish in front of the site, which purges it
 * (CDN_PROVIDER http). Read `site.cms`, `site.app`, `site.cdn` inside tests. Both sides share
 * CMS_ACCOUNT_API_SECRET (site-secret.ts): the CMS's /api/auth/* answers the site only, so a
 * test's own call there carries SITE_SECRET_HEADERS.
 *
 * With `sharedCms: true` the site reads the run's shared Strapi (tests/support/shared-cms.ts,
 * SHARED_CMS_ENV) instead of starting one: for files that need no CMS configuration of their own,
 * no CMS restart and no calls from the CMS to their site, and whose users and content are their
 * own (no other file uses their addresses or slugs). `cmsEnv` and `cdn` do not go with it.
 */
export function strapiSite(
  name: string,
  options: {
    cmsEnv?: (dir: string) => Record<string, string>;
    appEnv?: Record<string, string>;
    cdn?: boolean;
    sharedCms?: boolean;
    /**
     * An existing database: the seeded template's copy, changed by this function (given the
     * database file, the CMS stopped) before the CMS's first start on it, as an older version of
     * the CMS would have left it. Not with `sharedCms`.
     */
    existingDatabase?: (dbFile: string) => void;
  } = {},
): StrapiSite {
  if (options.sharedCms && (options.cmsEnv || options.cdn || options.existingDatabase)) {
    throw new Error("strapiSite: a file with cmsEnv, cdn or existingDatabase needs a Strapi of its own (no sharedCms)");
  }
  const dir = mkdtempSync(path.join(tmpdir(), `${name}-`));
  let startOptions: Parameters<typeof startCms>[0];
  let appOptions: Parameters<typeof startApp>[0];
  const site = {
    dir,
    mailDir: path.join(dir, "mail"),
    async restartCms(whileStopped?: (dbFile: string) => void) {
      if (options.sharedCms) throw new Error("strapiSite: the shared CMS is not restarted by a test file");
      await site.cms.stop();
      whileStopped?.(startOptions.dbFile);
      site.cms = await startCms({ ...startOptions, fresh: false });
    },
    async restartApp() {
      await site.app.stop();
      site.app = await startApp(appOptions);
    },
  } as StrapiSite;
  beforeAll(async () => {
    const [cmsPort, appPort, cdnPort] = [await getPort(), await getPort(), await getPort()];
    if (options.sharedCms) {
      const shared = inject("sharedCms");
      // Stopped by the run (shared-cms.ts), not by this file.
      site.cms = { url: shared.url, token: shared.token, dbFile: "", stop: async () => {} };
      site.mailDir = shared.mailDir;
      appOptions = {
        port: appPort,
        env: {
          CMS_URL: shared.url,
          CMS_REST_READONLY_API_KEY: shared.token,
          CMS_ACCOUNT_API_SECRET: TEST_ACCOUNT_API_SECRET,
          ...options.appEnv,
        },
      };
      site.app = await startApp(appOptions);
      return;
    }
    startOptions = {
      port: cmsPort,
      dbFile: path.join(dir, "cms.db"),
      fresh: true,
      env: {
        CLIENT_URL: `http://127.0.0.1:${appPort}`,
        CMS_ACCOUNT_API_SECRET: TEST_ACCOUNT_API_SECRET,
        ...options.cmsEnv?.(dir),
      },
    };
    if (options.existingDatabase) {
      copyTemplate(await cmsTemplate(), startOptions.dbFile);
      options.existingDatabase(startOptions.dbFile);
      startOptions.fresh = false;
    }
    site.cms = await startCms(startOptions);
    const cdnEnv = { CDN_PROVIDER: "http", CDN_PURGE_URL: `http://127.0.0.1:${cdnPort}` };
    appOptions = {
      port: appPort,
      env: {
        CMS_URL: site.cms.url,
        CMS_REST_READONLY_API_KEY: site.cms.token,
        CMS_ACCOUNT_API_SECRET: TEST_ACCOUNT_API_SECRET,
        ...(options.cdn ? cdnEnv : {}),
        ...options.appEnv,
      },
    };
    site.app = await startApp(appOptions);
    if (options.cdn) site.cdn = await startVarnish({ port: cdnPort, backendPort: appPort });
  }, 240_000);
  afterAll(async () => {
    await site.app?.stop();
    await site.cms?.stop();
    await site.cdn?.stop();
    rmSync(dir, { recursive: true, force: true });
  }, 240_000);
  return site;
}
