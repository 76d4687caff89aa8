import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import getPort from "../support/free-port.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { startApp, type AppHandle } from "../support/app-server.ts";
import { startCms, type CmsHandle } from "../support/cms-server.ts";

// With the real Strapi: stop it while a visitor is signed in, then bring it back.
const CMS_PORT = await getPort();
const dir = mkdtempSync(path.join(tmpdir(), "auth-cms-down-"));
const dbFile = path.join(dir, "cms.db");
let cms: CmsHandle;
let app: AppHandle;

beforeAll(async () => {
  cms = await startCms({ port: CMS_PORT, dbFile, fresh: true });
  // The site's default CMS fetch timeout (5 s): a stopped CMS refuses at once, so nothing here
  // waits for it, while a 2 s one failed the first sign-in (bcrypt, at load 30) with a 503.
  app = await startApp({ port: await getPort(), env: { CMS_URL: cms.url, CMS_REST_READONLY_API_KEY: cms.token } });
}, 240_000);

afterAll(async () => {
  await app?.stop();
  await cms?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const post = (url: string, body: unknown) =>
  fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", origin: app.url },
    body: JSON.stringify(body),
  });

describe("when the real CMS stops", () => {
  it("a signed-in visitor stays signed in, sign-in says the CMS is unavailable, and all recovers", async () => {
    const registered = await post(`${app.url}/api/auth/register-cms`, {
      email: "down@example.com",
      password: "Still-here-1",
      passwordConfirmation: "Still-here-1",
    });
    expect(registered.status).toBe(200);
    const signedIn = await post(`${app.url}/api/auth/sign-in-cms`, {
      email: "down@example.com",
      password: "Still-here-1",
    });
    expect(signedIn.status).toBe(200);
    const cookie = signedIn.headers
      .getSetCookie()
      .map((value) => value.split(";")[0])
      .join("; ");

    await cms.stop();
    const account = await fetch(`${app.url}/account`, { headers: { cookie }, redirect: "manual" });
    expect(account.status).toBe(200);
    expect(await account.text()).toContain("down@example.com");
    const signIn = await post(`${app.url}/api/auth/sign-in-cms`, {
      email: "down@example.com",
      password: "Still-here-1",
    });
    expect(signIn.status).toBe(503);
    expect((await signIn.json()).message).toBe("Accounts are unavailable right now. Please try again in a moment.");

    cms = await startCms({ port: CMS_PORT, dbFile });
    const again = await post(`${app.url}/api/auth/sign-in-cms`, {
      email: "down@example.com",
      password: "Still-here-1",
    });
    expect(again.status, app.output().slice(-2000)).toBe(200);
    const stillSignedIn = await fetch(`${app.url}/account`, { headers: { cookie }, redirect: "manual" });
    expect(stillSignedIn.status).toBe(200);
  }, 240_000);
});
