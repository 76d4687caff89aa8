import { execSync } from "node:child_process";
import { once } from "node:events";

import getPort from "../support/free-port.ts";
import { describe, expect, it } from "vitest";

import { projectRoot, spawnApp, startApp } from "../support/app-server.ts";

/** What Vite 8.1+ printed about @react-router/dev 7's own servers (decision 0016; gone with 8). */
const ENV_FILE_WARNING = "The `envFile` option is deprecated";

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
      // React Router's config loader and child compiler have started by now: not one envFile warning.
      expect(app.output()).toContain("Site ready at");
      expect(app.output()).not.toContain(ENV_FILE_WARNING);
    } finally {
      await app.stop();
    }
  }, 60_000);

  it("React Router's own Vite servers print no deprecation warning, with no filter of ours", () => {
    // `routes` goes through the same config loader as `build` does first, without building.
    const output = execSync("node_modules/.bin/react-router routes 2>&1", { cwd: projectRoot, encoding: "utf8" });
    expect(output).toContain('<Route file="root.tsx">');
    expect(output).not.toContain(ENV_FILE_WARNING);
    expect(output).not.toMatch(/deprecat/i);
  }, 60_000);
});
