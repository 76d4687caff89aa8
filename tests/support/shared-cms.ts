import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import getPort from "./free-port.ts";
import type { TestProject } from "vitest/node";

import { startCms } from "./cms-server.ts";
import { TEST_ACCOUNT_API_SECRET } from "./site-secret.ts";

/**
 * One Strapi for the integration files that can share it (strapiSite(name, { sharedCms: true })):
 * started once per run by this vitest globalSetup (vitest.config.ts, integration project) on a free
 * port and a fresh seeded database, instead of one per file. A file that shares it starts its own
 * site against it and uses users and content of its own (addresses and slugs no other sharing file
 * uses); a file that needs another configuration, a restart, or the CMS's CLIENT_URL to be its site
 * (revalidation, preview URLs, links in mail it follows to that site) keeps a Strapi of its own.
 * These are its secrets.
 */
export const SHARED_CMS_ENV = {
  CMS_OAUTH_SYNC_SECRET: "shared-cms-oauth-sync-secret-0123456789",
  CMS_ACCOUNT_API_SECRET: TEST_ACCOUNT_API_SECRET,
};

export interface SharedCms {
  url: string;
  token: string;
  /** Where its mail goes (CMS_MAIL_DIR): one file per message, found by address (waitForMail). */
  mailDir: string;
}

declare module "vitest" {
  export interface ProvidedContext {
    sharedCms: SharedCms;
  }
}

/**
 * Both integration projects (vitest.config.ts) list this globalSetup, and vitest runs a project's
 * globalSetup for each project that has files to run, each through its own module runner: the one
 * Strapi is kept on globalThis (the main vitest process, the same for both), started by the first
 * project that asks, stopped when the last one's teardown runs (all teardowns run at the end).
 */
interface Started {
  cms: Promise<{ shared: SharedCms; stop: () => Promise<void> }>;
  users: number;
}
const holder = globalThis as { sharedCmsStarted?: Started };

async function startShared(): Promise<{ shared: SharedCms; stop: () => Promise<void> }> {
  const dir = mkdtempSync(path.join(tmpdir(), "shared-cms-"));
  const mailDir = path.join(dir, "mail");
  mkdirSync(mailDir);
  const cms = await startCms({
    port: await getPort(),
    dbFile: path.join(dir, "cms.db"),
    fresh: true,
    env: {
      ...SHARED_CMS_ENV,
      CMS_MAIL_DIR: mailDir,
      // Each sharing file logs in as the admin once (StrapiAdmin.login), all from 127.0.0.1.
      ADMIN_LOGIN_RATE_LIMIT_MAX: "100",
    },
  });
  return {
    shared: { url: cms.url, token: cms.token, mailDir },
    stop: async () => {
      await cms.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export default async function setup(project: TestProject) {
  const started = (holder.sharedCmsStarted ??= { cms: startShared(), users: 0 });
  started.users++;
  const { shared, stop } = await started.cms;
  project.provide("sharedCms", shared);
  return async () => {
    if (--started.users > 0) return;
    holder.sharedCmsStarted = undefined;
    await stop();
  };
}
