import { defineConfig } from "@playwright/test";
import getPort from "get-port";

import { e2eEnvKey } from "./tests/support/e2e-env.ts";

/**
 * End-to-end tests against the real Strapi (fresh database, seeded) and the production build of
 * the site, started by tests/e2e/global-setup.ts. Every test runs twice: with JavaScript on and
 * with JavaScript off, except the Strapi admin UI's (it needs JavaScript: js-on only). There are
 * two stacks (Strapi, site, OpenID provider, Varnish, mail folder), `js-on` and `js-off`, each used
 * by one worker at a time: the two run side by side, while the tests on one stack run one after
 * another. A project runs on the stack of its name unless its `metadata.stack` names another
 * (e2eEnv). Debian's Chromium is used because Playwright cannot download its own browser here.
 */
export const E2E_STACKS = ["js-on", "js-off"] as const;

/**
 * The site's port of each stack: free ports, picked once by the runner (this file is loaded
 * again in each worker, which inherits the runner's environment and so the same ports).
 */
export function e2eAppPort(stack: string): number {
  return Number(process.env[e2eEnvKey("E2E_APP_PORT", stack)]);
}
for (const stack of E2E_STACKS) process.env[e2eEnvKey("E2E_APP_PORT", stack)] ||= String(await getPort());
const baseURL = (stack: string) => `http://127.0.0.1:${e2eAppPort(stack)}`;

// The specs that need JavaScript: the Strapi admin UI's (admin-*.spec.ts), the accessibility spec
// (axe runs as a script in the page) and the screenshots (the same markup as js-on's).
const JS_ONLY = [/admin-[\w-]+\.spec\.ts$/, /accessibility\.spec\.ts$/, /visual\.spec\.ts$/];
// Run by js-on-late instead of js-on: the js-on stack has every spec and the js-only ones on top,
// the js-off stack about two thirds as much work; moving these evens the two workers out (the run
// ends when the slower one does). They only read the seeded pages and make accounts of their own.
const LATE = [/accessibility\.spec\.ts$/];

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
      testIgnore: LATE,
    },
    {
      name: "js-off",
      workers: 1,
      use: { baseURL: baseURL("js-off"), browserName: "chromium", javaScriptEnabled: false },
      testIgnore: JS_ONLY,
    },
    // JavaScript on, on the js-off stack once js-off's tests are done (`dependencies`: never two
    // workers on one stack). Its specs' content is the seeded site, as js-off's tests leave it.
    {
      name: "js-on-late",
      workers: 1,
      dependencies: ["js-off"],
      metadata: { stack: "js-off" },
      use: { baseURL: baseURL("js-off"), browserName: "chromium", javaScriptEnabled: true },
      testMatch: LATE,
    },
  ],
});
