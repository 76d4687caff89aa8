import { test } from "@playwright/test";

/**
 * The end-to-end run starts two stacks (Strapi, site, OpenID provider, Varnish, mail folder),
 * `js-on` and `js-off`, used side by side (playwright.config.ts). A stack's values are in the
 * environment under its suffix (`E2E_CMS_URL_JS_ON`: see tests/e2e/global-setup.ts); this reads
 * those of the running test's stack: its project's `metadata.stack`, or else the project's name.
 * Call it inside a test or hook.
 */
export function e2eEnv(name: string): string {
  const project = test.info().project;
  const stack = typeof project.metadata.stack === "string" ? project.metadata.stack : project.name;
  return process.env[e2eEnvKey(name, stack)] ?? "";
}

/** `E2E_CMS_URL`, `js-off` → `E2E_CMS_URL_JS_OFF`. */
export const e2eEnvKey = (name: string, stack: string) => `${name}_${stack.replace(/\W/g, "_").toUpperCase()}`;

/** The running project's site origin (its `baseURL`, set by playwright.config.ts for every project). */
export function siteOrigin(): string {
  const base = test.info().project.use.baseURL;
  if (!base) throw new Error(`project ${test.info().project.name} has no baseURL (playwright.config.ts sets one)`);
  return new URL(base).origin;
}
