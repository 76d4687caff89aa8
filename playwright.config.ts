import { defineConfig } from "@playwright/test";

/**
 * End-to-end tests against the real Strapi (fresh database, seeded) and the production
 * build of the site, both started by tests/e2e/global-setup.ts. Every test runs twice:
 * with JavaScript on and with JavaScript off, except the Strapi admin UI's (it needs
 * JavaScript: js-on only). Debian's Chromium is used because Playwright cannot download
 * its own browser here.
 */
export const E2E_APP_PORT = 3100;

export default defineConfig({
  testDir: "tests/e2e",
  globalSetup: "./tests/e2e/global-setup.ts",
  fullyParallel: false,
  workers: 1,
  forbidOnly: true,
  retries: 0,
  timeout: 30_000,
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never" }]],
  use: {
    baseURL: `http://127.0.0.1:${E2E_APP_PORT}`,
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
  },
  projects: [
    { name: "js-on", use: { browserName: "chromium", javaScriptEnabled: true } },
    // The Strapi admin UI needs JavaScript: its specs (admin-*.spec.ts) run in js-on only.
    {
      name: "js-off",
      use: { browserName: "chromium", javaScriptEnabled: false },
      testIgnore: /admin-[\w-]+\.spec\.ts$/,
    },
  ],
});
