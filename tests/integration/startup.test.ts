import { once } from "node:events";

import getPort from "get-port";
import { describe, expect, it } from "vitest";

import { spawnApp, startApp } from "../support/app-server.ts";

describe("starting the site", () => {
  it("refuses to start in production with a missing required variable, and says which", async () => {
    const { child, output } = spawnApp({
      port: await getPort(),
      env: { APP_PUBLIC_URL: "https://www.example.com", CMS_REST_READONLY_API_KEY: "x".repeat(40) },
    });
    const [code] = (await once(child, "exit")) as [number | null];
    expect(code).toBe(1);
    expect(output()).toContain(
      "Invalid environment configuration:\n  - CMS_URL: is missing (base URL of the Strapi CMS)",
    );
    expect(output()).not.toContain("Site ready");
  }, 30_000);

  it("in development mounts Vite's middleware, so the HMR client is served", async () => {
    const app = await startApp({
      port: await getPort(),
      mode: "development",
      env: { CMS_URL: "http://127.0.0.1:9", CMS_REST_READONLY_API_KEY: "x".repeat(40) },
    });
    try {
      const response = await fetch(`${app.url}/@vite/client`);
      expect(response.status).toBe(200);
      expect(await response.text()).toContain("[vite] connecting...");
    } finally {
      await app.stop();
    }
  }, 60_000);
});
