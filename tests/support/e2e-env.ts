import { test } from "@playwright/test";

/**
 * The end-to-end run starts one stack (Strapi, site, OpenID provider, Varnish, mail folder) per
 * Playwright project, and the two projects run side by side (playwright.config.ts). A project's
 * values are in the environment under the project's suffix (`E2E_CMS_URL_JS_ON`: see
 * tests/e2e/global-setup.ts); this reads the running test's one. Call it inside a test or hook.
 */
export function e2eEnv(name: string): string {
  return process.env[e2eEnvKey(name, test.info().project.name)] ?? "";
}

/** `E2E_CMS_URL`, `js-off` → `E2E_CMS_URL_JS_OFF`. */
export const e2eEnvKey = (name: string, project: string) => `${name}_${project.replace(/\W/g, "_").toUpperCase()}`;

/** The running project's site origin (its `baseURL`, set by playwright.config.ts for every project). */
export function siteOrigin(): string {
  const base = test.info().project.use.baseURL;
  if (!base) throw new Error(`project ${test.info().project.name} has no baseURL (playwright.config.ts sets one)`);
  return new URL(base).origin;
}
