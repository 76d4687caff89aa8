import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { startApp, type AppHandle } from "../support/app-server.ts";
import { startCms, type CmsHandle } from "../support/cms-server.ts";
import { startVarnish } from "../support/varnish.ts";

// The CMS's admin action "purge the CDN": Strapi → the site's /api/cdn-purge (with the CDN
// purge secret) → the CDN (a real Varnish in front of the site).
const SECRET = "cdn-purge-secret-0123456789abcdef";
const APP_PORT = 3541;
const CDN_PORT = 3542;
const dir = mkdtempSync(path.join(tmpdir(), "cms-cdn-purge-"));
let cdn: Awaited<ReturnType<typeof startVarnish>>;
let cms: CmsHandle;
let app: AppHandle;

beforeAll(async () => {
  cms = await startCms({
    port: 3540,
    dbFile: path.join(dir, "cms.db"),
    fresh: true,
    env: { CLIENT_URL: `http://127.0.0.1:${APP_PORT}`, CMS_CDN_PURGE_SECRET: SECRET },
  });
  app = await startApp({
    port: APP_PORT,
    env: {
      CMS_URL: cms.url,
      CMS_REST_READONLY_API_KEY: cms.token,
      CMS_CDN_PURGE_SECRET: SECRET,
      CDN_PROVIDER: "http",
      CDN_PURGE_URL: `http://127.0.0.1:${CDN_PORT}`,
    },
  });
  cdn = await startVarnish({ port: CDN_PORT, backendPort: APP_PORT });
}, 240_000);

afterAll(async () => {
  await app?.stop();
  await cms?.stop();
  await cdn?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function adminToken(): Promise<string> {
  const response = await fetch(`${cms.url}/admin/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: "admin@example.com", password: "Admin12345" }),
  });
  return ((await response.json()) as { data: { token: string } }).data.token;
}

const purge = (body: unknown, token?: string) =>
  fetch(`${cms.url}/api/cdn-purge`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });

describe("purging the CDN from the CMS", () => {
  it("an admin purges paths, tags and everything, through the site, with the purge secret", async () => {
    const viaCdn = async (page: string) => {
      const response = await fetch(`${cdn.url}${page}`);
      await response.arrayBuffer();
      return response.headers.get("x-cdn-cache");
    };
    await viaCdn("/company");
    expect(await viaCdn("/company")).toBe("HIT");
    const token = await adminToken();
    const byPath = await purge({ paths: ["/company"] }, token);
    expect(byPath.status, await byPath.clone().text()).toBe(200);
    expect(await byPath.json()).toMatchObject({
      data: { purged: true, provider: "http", requests: ["PURGE /company"] },
    });
    expect(await viaCdn("/company")).toBe("MISS");
    for (const body of [{ tags: ["cms:api::navbar.navbar"] }, { everything: true }]) {
      const response = await purge(body, token);
      expect(response.status, await response.text()).toBe(200);
    }
    expect(await viaCdn("/company")).toBe("MISS");
  });

  it("refuses without an admin token (401) and with a bad body (400)", async () => {
    expect((await purge({ everything: true })).status).toBe(401);
    expect((await purge({ everything: true }, "not-a-token")).status).toBe(401);
    const bad = await purge({ paths: ["company"] }, await adminToken());
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.message).toMatch(/must start with \//);
  });
});
