import { createRequire } from "node:module";
import path from "node:path";

import { expect } from "vitest";

import { SITE_SECRET_HEADERS } from "./site-secret.ts";

/**
 * Accounts made straight in the real CMS, as set-up for integration tests (not through the site):
 * a password account, an OAuth sync (what the site's OAuth callback or re-sync sends), and a
 * direct write to the CMS's SQLite database for states no route can reach in a test's time.
 */

/** Registers a password account with Strapi (username = email, as the site does), with the site's X-Site-Secret. */
export async function registerCmsUser(cmsUrl: string, email: string, password: string): Promise<void> {
  const response = await fetch(`${cmsUrl}/api/auth/local/register`, {
    method: "POST",
    headers: { "content-type": "application/json", ...SITE_SECRET_HEADERS },
    body: JSON.stringify({ username: email, email, password }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
}

/** POST /api/oauth-sync with the shared secret; expects a 2xx and returns its body. */
export async function oauthSyncInCms(
  cmsUrl: string,
  secret: string,
  body: Record<string, unknown>,
): Promise<{ jwt: string; created: boolean; authAt?: number; user: { id: number; email: string } }> {
  const response = await fetch(`${cmsUrl}/api/oauth-sync`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${secret}` },
    body: JSON.stringify(body),
  });
  expect(response.status, await response.clone().text()).toBeLessThan(300);
  return (await response.json()) as {
    jwt: string;
    created: boolean;
    authAt?: number;
    user: { id: number; email: string };
  };
}

/** Runs one SQL statement on the CMS's SQLite file (better-sqlite3 from cms/node_modules). */
export function runOnCmsDatabase(dbFile: string, sql: string, ...values: unknown[]): void {
  const Database = createRequire(path.resolve("cms/package.json"))("better-sqlite3") as new (file: string) => {
    prepare(statement: string): { run(...values: unknown[]): unknown };
    close(): void;
  };
  const db = new Database(dbFile);
  try {
    db.prepare(sql).run(...values);
  } finally {
    db.close();
  }
}
