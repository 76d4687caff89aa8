import getPort from "../support/free-port.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { startApp, type AppHandle } from "../support/app-server.ts";
import { StandInCms } from "../support/stand-in-cms.ts";

// Fault drills: the CMS slow, the site restarted.
const cms = new StandInCms(await getPort());
const APP_PORT = await getPort();
const env = { CMS_URL: cms.url, CMS_REST_READONLY_API_KEY: "stand-in-token-0123456789", CMS_FETCH_TIMEOUT_MS: "500" };
let app: AppHandle;

beforeAll(async () => {
  await cms.start();
  cms.setPage({ fullPath: "/", title: "Home" });
  cms.setPage({ fullPath: "/slow", title: "Slow page" });
  cms.users.set("ann@example.com", { id: 1, password: "Right-password-1", blocked: false });
  app = await startApp({ port: APP_PORT, env });
}, 60_000);

afterAll(async () => {
  await app?.stop();
  await cms.stop();
});

describe("fault drills", () => {
  it("a slow CMS: timeouts hold, 100 concurrent visitors make a handful of CMS calls, not a pile-up", async () => {
    cms.delayMs = 20_000;
    const before = cms.requests.length;
    const started = Date.now();
    const statuses = await Promise.all(
      Array.from({ length: 100 }, () => fetch(`${app.url}/slow`).then((response) => response.status)),
    );
    const elapsed = Date.now() - started;
    cms.delayMs = 0;
    // Every visitor got an answer (503: the CMS timed out after 500 ms), long before the CMS
    // would have answered (20 s): the timeout holds. The margin is wide on purpose.
    expect(new Set(statuses)).toEqual(new Set([503]));
    expect(elapsed).toBeLessThan(10_000);
    // One render for all 100 (coalesced): its navbar, footer and page calls, not 100 × 3.
    expect(cms.requests.length - before).toBeLessThanOrEqual(6);

    // And once the CMS is quick again, the page is there.
    expect((await fetch(`${app.url}/slow`)).status).toBe(200);
  }, 30_000);

  it("the CMS stopped: cached pages keep being served, and all recovers when it is back", async () => {
    await fetch(`${app.url}/`);
    expect((await fetch(`${app.url}/`)).headers.get("x-cache")).toBe("HIT");
    await cms.stop();
    try {
      const cached = await fetch(`${app.url}/`);
      expect(cached.status).toBe(200);
      expect(await cached.text()).toContain("Home");
      const uncached = await fetch(`${app.url}/never-rendered`);
      expect(uncached.status).toBe(503);
    } finally {
      await cms.start();
    }
    cms.setPage({ fullPath: "/late", title: "Back again" });
    const back = await fetch(`${app.url}/late`);
    expect(back.status).toBe(200);
    expect(await back.text()).toContain("Back again");
  }, 30_000);

  it("a restarted site keeps its visitors signed in, and its cache fills again", async () => {
    const signIn = await fetch(`${app.url}/api/auth/sign-in-cms`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: app.url },
      body: JSON.stringify({ email: "ann@example.com", password: "Right-password-1" }),
    });
    expect(signIn.status).toBe(200);
    const cookie = signIn.headers
      .getSetCookie()
      .map((value) => value.split(";")[0])
      .join("; ");
    await fetch(`${app.url}/`);
    expect((await fetch(`${app.url}/`)).headers.get("x-cache")).toBe("HIT");

    await app.stop();
    app = await startApp({ port: APP_PORT, env });

    const account = await fetch(`${app.url}/account`, { headers: { cookie }, redirect: "manual" });
    expect(account.status).toBe(200);
    expect(await account.text()).toContain("ann@example.com");
    expect((await fetch(`${app.url}/`)).headers.get("x-cache")).toBe("MISS");
    expect((await fetch(`${app.url}/`)).headers.get("x-cache")).toBe("HIT");
  }, 60_000);
});
