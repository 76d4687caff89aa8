import { defineConfig } from "@playwright/test";
import getPort from "./tests/support/free-port.ts";

import { e2eEnvKey } from "./tests/support/e2e-env.ts";

/**
 * End-to-end tests against the real Strapi (fresh database, seeded) and the production build of
 * the site, started by tests/e2e/global-setup.ts. Every test runs twice: with JavaScript on and
 * with JavaScript off, except the Strapi admin UI's (it needs JavaScript: js-on only) and the
 * accessibility spec (JavaScript on, in the js-off project: see `projects`). Each of
 * the two projects has a stack of its own (Strapi, site, OpenID provider, Varnish, mail folder)
 * and one worker: the projects run side by side, while the tests of one project run one after
 * another against its stack, as the whole run used to. Debian's Chromium is used because
 * Playwright cannot download its own browser here.
 */
export const E2E_PROJECTS = ["js-on", "js-off"] as const;

/**
 * The site's port of each project: free ports, picked once by the runner (this file is loaded
 * again in each worker, which inherits the runner's environment and so the same ports).
 */
export function e2eAppPort(project: string): number {
  return Number(process.env[e2eEnvKey("E2E_APP_PORT", project)]);
}
for (const project of E2E_PROJECTS) process.env[e2eEnvKey("E2E_APP_PORT", project)] ||= String(await getPort());
const baseURL = (project: string) => `http://127.0.0.1:${e2eAppPort(project)}`;

export default defineConfig({
  testDir: "tests/e2e",
  globalSetup: "./tests/e2e/global-setup.ts",
  fullyParallel: false,
  // One per project (`workers` below): the two projects' stacks share no state.
  workers: 2,
  forbidOnly: true,
  retries: 0,
  timeout: 30_000,
  // Screenshot baselines (tests/e2e/visual.spec.ts): next to the spec, named by project and
  // platform, as Playwright's default. They are made on Linux with Debian's Chromium and its fonts,
  // the machine kind CI runs on; another OS or browser build renders text differently anyway.
  snapshotPathTemplate: "{testDir}/{testFilePath}-snapshots/{arg}-{projectName}-{platform}{ext}",
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never" }]],
  use: {
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
    {
      name: "js-on",
      workers: 1,
      use: { baseURL: baseURL("js-on"), browserName: "chromium", javaScriptEnabled: true },
      // Run by js-off's worker instead, JavaScript on (the spec sets it): js-on's stack has every
      // spec and the JavaScript-only ones on top (322 s of tests against js-off's 199 s in the idle
      // run of df9ceee), and the run ends when the slower worker does. See docs/testing.md.
      testIgnore: [/accessibility\.spec\.ts$/],
    },
    // Not with JavaScript off: the Strapi admin UI's specs (admin-*.spec.ts: it needs JavaScript)
    // and the screenshots (the same markup as js-on's).
    {
      name: "js-off",
      workers: 1,
      use: { baseURL: baseURL("js-off"), browserName: "chromium", javaScriptEnabled: false },
      testIgnore: [/admin-[\w-]+\.spec\.ts$/, /visual\.spec\.ts$/],
    },
  ],
});
