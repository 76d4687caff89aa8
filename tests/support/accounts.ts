import { expect, type BrowserContext, type Page } from "@playwright/test";

import { SITE_SECRET_HEADERS } from "./site-secret.ts";
import { e2eEnv, siteOrigin } from "./e2e-env.ts";

/** Account helpers for the end-to-end specs (the CMS is the real Strapi of the run). */

const cmsUrl = () => e2eEnv("E2E_CMS_URL");

/** Registers a CMS user directly, as setup (not through the site), with the site's X-Site-Secret. */
export async function registerInCms(email: string, password: string) {
  const response = await fetch(`${cmsUrl()}/api/auth/local/register`, {
    method: "POST",
    headers: { "content-type": "application/json", ...SITE_SECRET_HEADERS },
    body: JSON.stringify({ username: email, email, password }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
}

/** Fills and sends the site's registration form. */
export async function registerInBrowser(page: Page, email: string, password: string) {
  await page.goto("/register");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByLabel("Repeat the password").fill(password);
  await page.getByRole("button", { name: "Create account" }).click();
}

/** Fills and sends the site's sign-in form. */
export async function signInInBrowser(page: Page, email: string, password: string, path = "/sign-in") {
  await page.goto(path);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

/**
 * Signs `context` in through the site's JSON sign-in (POST /api/auth/sign-in-cms, as the sign-in
 * form does with JavaScript): the session cookie lands in the browser context, without rendering
 * a page. For a test whose subject is not the sign-in itself: a page render and hydration cost
 * seconds on a busy machine, and the sign-in form has specs of its own (auth.spec.ts).
 */
export async function signInByRequest(context: BrowserContext, email: string, password: string) {
  const response = await context.request.post("/api/auth/sign-in-cms", {
    headers: { origin: siteOrigin() },
    data: { email, password },
  });
  expect(response.status(), await response.text()).toBe(200);
}

/**
 * Signs in with the run's OpenID Connect provider (tests/support/oidc-provider.ts, "Local OIDC"):
 * its development login and consent pages; a provider that still has a session from an earlier
 * sign-in in this browser sends the visitor straight back (still a round trip to the provider).
 */
export async function signInWithOidc(page: Page, login: string, path = "/sign-in", button = "Sign in with Local OIDC") {
  await page.goto(path);
  await page.getByRole("button", { name: button }).click();
  const loginField = page.locator("input[name=login]");
  const backOnSite = page.locator("main h1");
  await expect(loginField.or(backOnSite)).toBeVisible();
  if (!(await loginField.isVisible())) return;
  await loginField.fill(login);
  await page.locator("input[name=password]").fill("anything");
  await page.locator("button[type=submit]").click();
  const consent = page.locator("button[type=submit]", { hasText: /continue/i });
  if (await consent.isVisible().catch(() => false)) await consent.click();
}
