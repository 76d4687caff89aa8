import { expect, test } from "@playwright/test";

import { registerInBrowser, registerInCms, signInInBrowser as signIn } from "../support/accounts.ts";
import { formTokenOf } from "../support/auth-form.ts";
import { SITE_SECRET_HEADERS } from "../support/site-secret.ts";
import { StrapiAdmin } from "../support/strapi-admin.ts";
import { e2eEnv } from "../support/e2e-env.ts";

// Accounts against the real Strapi, in Chromium with JavaScript on and off.
const cmsUrl = () => e2eEnv("E2E_CMS_URL");
let counter = 0;
const newEmail = (project: string) => `e2e-${project}-${Date.now()}-${counter++}@example.com`;
const JWT_SHAPE = /eyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{10,}/;

const REGISTERED = /If this email address was not registered yet, your account is ready/;

test("a visitor registers, is asked to sign in, signs in, signs out and signs in again", async ({ page }, info) => {
  const email = newEmail(info.project.name);
  await registerInBrowser(page, email, "Correct-horse-1");
  // No session yet: a taken address gets this same page (no enumeration).
  await expect(page.getByRole("status")).toHaveText(REGISTERED);
  await signIn(page, email, "Correct-horse-1");
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByTestId("account-email")).toHaveText(email);
  if (info.project.name === "js-on") {
    // The header reads the session in the browser (the server renders the same page for everyone).
    await expect(page.getByTestId("signed-in-as")).toHaveText(email);
  }

  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.goto("/account");
  await expect(page).toHaveURL(/\/sign-in\?redirectTo=%2Faccount$/);

  await signIn(page, email, "Correct-horse-1", "/sign-in?redirectTo=%2Faccount");
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByTestId("account-email")).toHaveText(email);
});

test("registration errors show next to the fields and keep the email; a taken address is not revealed", async ({
  page,
}, info) => {
  const email = newEmail(info.project.name);
  await registerInCms(email, "Existing-pass-1");
  await page.goto("/register");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill("short");
  await page.getByLabel("Repeat the password").fill("different");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.locator("#password-error")).toHaveText("Use at least 8 characters.");
  if (info.project.name === "js-on") await expect(page.getByLabel("Password", { exact: true })).toBeFocused();
  await expect(page.locator("#passwordConfirmation-error")).toHaveText("The two passwords do not match.");
  await expect(page.getByLabel("Email")).toHaveValue(email);
  await expect(page.getByLabel("Password", { exact: true })).toHaveValue("");

  await page.getByLabel("Password", { exact: true }).fill("Another-pass-1");
  await page.getByLabel("Repeat the password").fill("Another-pass-1");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("status")).toHaveText(REGISTERED);
  await expect(page.getByText("already exists")).toHaveCount(0);
  // The existing account kept its password.
  await signIn(page, email, "Another-pass-1");
  await expect(page.getByRole("alert")).toHaveText("Wrong email or password.");
  await signIn(page, email, "Existing-pass-1");
  await expect(page).toHaveURL(/\/account$/);
});

test("a wrong password shows an error, with status 401, and keeps the email", async ({ page, request }, info) => {
  const email = newEmail(info.project.name);
  await registerInCms(email, "Right-password-1");
  await signIn(page, email, "Wrong-password-1");
  await expect(page.getByRole("alert")).toHaveText("Wrong email or password.");
  await expect(page.getByLabel("Email")).toHaveValue(email);
  await expect(page.getByLabel("Password", { exact: true })).toHaveValue("");

  const origin = new URL(page.url()).origin;
  const response = await request.post("/sign-in", {
    headers: { origin },
    form: { ...(await formTokenOf(origin, "/sign-in")), email, password: "Wrong-password-1" },
    maxRedirects: 0,
  });
  expect(response.status()).toBe(401);
});

test("after a password change the old one fails, the new one works, a copied session cookie is signed out", async ({
  page,
  browser,
}, info) => {
  const email = newEmail(info.project.name);
  await registerInCms(email, "Old-password-1");
  await signIn(page, email, "Old-password-1");
  await expect(page).toHaveURL(/\/account$/);
  // Someone holds a copy of the session cookies.
  const thief = await browser.newContext({ baseURL: new URL(page.url()).origin });
  await thief.addCookies(await page.context().cookies());
  const thiefPage = await thief.newPage();
  await thiefPage.goto("/account");
  await expect(thiefPage.getByTestId("account-email")).toHaveText(email);

  await page.getByLabel("Current password").fill("Old-password-1");
  await page.getByLabel("New password", { exact: true }).fill("New-password-2");
  await page.getByLabel("Repeat the new password").fill("New-password-2");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByRole("status")).toHaveText("Your password has been changed.");
  // Still signed in, with the new JWT the CMS issued.
  await page.reload();
  await expect(page.getByTestId("account-email")).toHaveText(email);
  // The copy is not.
  await thiefPage.goto("/account");
  await expect(thiefPage).toHaveURL(/\/sign-in\?redirectTo=%2Faccount$/);
  await thief.close();

  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(page).toHaveURL(/\/$/);
  await signIn(page, email, "Old-password-1");
  await expect(page.getByRole("alert")).toHaveText("Wrong email or password.");
  await signIn(page, email, "New-password-2");
  await expect(page).toHaveURL(/\/account$/);
});

test("a user blocked in the CMS is signed out on the next page load", async ({ page }, info) => {
  const email = newEmail(info.project.name);
  await registerInCms(email, "Block-me-123");
  await signIn(page, email, "Block-me-123");
  await expect(page).toHaveURL(/\/account$/);
  const admin = await StrapiAdmin.login(cmsUrl());
  await admin.setUserBlocked(email, true);
  await page.goto("/account");
  await expect(page).toHaveURL(/\/sign-in\?redirectTo=%2Faccount$/);
  const cookies = await page.context().cookies();
  expect(cookies.filter((cookie) => cookie.name.startsWith("better-auth.session"))).toEqual([]);
  await signIn(page, email, "Block-me-123");
  await expect(page.getByRole("alert")).toHaveText("This account has been blocked.");
});

test("a tampered session cookie is refused", async ({ page }, info) => {
  const email = newEmail(info.project.name);
  await registerInCms(email, "Tamper-123x");
  await signIn(page, email, "Tamper-123x");
  await expect(page).toHaveURL(/\/account$/);
  const context = page.context();
  const cookies = await context.cookies();
  const data = cookies.find((cookie) => cookie.name === "better-auth.session_data");
  expect(data).toBeDefined();
  await context.addCookies([{ ...data!, value: `${data!.value.slice(0, -6)}AAAAAA` }]);
  await page.goto("/account");
  await expect(page).toHaveURL(/\/sign-in/);
});

test("the CMS JWT reaches the browser in no response of a whole flow", async ({ page }, info) => {
  const bodies: string[] = [];
  page.on("response", async (response) => {
    const headers = Object.entries(await response.allHeaders())
      .filter(([name]) => name !== "set-cookie")
      .map(([name, value]) => `${name}: ${value}`)
      .join("\n");
    bodies.push(headers + (await response.text().catch(() => "")));
  });
  const email = newEmail(info.project.name);
  await registerInBrowser(page, email, "No-leaks-123");
  await expect(page.getByRole("status")).toHaveText(REGISTERED);
  await signIn(page, email, "No-leaks-123");
  await expect(page).toHaveURL(/\/account$/);
  await page.goto("/api/auth/get-session");
  await page.goto("/company");
  await page.goto("/account");
  await expect(page.getByTestId("account-email")).toHaveText(email);
  expect(bodies.length).toBeGreaterThan(4);
  const getSession = bodies.find((body) => body.includes(`"email":"${email}"`));
  expect(getSession).toBeDefined();
  for (const body of bodies) expect(body).not.toMatch(JWT_SHAPE);
  expect(bodies.join("\n")).not.toContain("cmsJWT");
});

test("redirectTo only ever leads to a page of this site", async ({ page }, info) => {
  const email = newEmail(info.project.name);
  await registerInCms(email, "Redirect-123");
  for (const target of ["https://evil.example/", "//evil.example", "/\\evil.example"]) {
    await page.context().clearCookies();
    await signIn(page, email, "Redirect-123", `/sign-in?redirectTo=${encodeURIComponent(target)}`);
    // Another host never: a path is collapsed onto this site (`//evil.example` -> `/evil.example`), the rest
    // falls back.
    await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/(account|evil\.example)$/);
  }
  await page.context().clearCookies();
  await signIn(page, email, "Redirect-123", `/sign-in?redirectTo=${encodeURIComponent("/company")}`);
  await expect(page).toHaveURL(/\/company$/);
});

test("a filled honeypot refuses the registration, keeps the email, creates no account; then the form works", async ({
  page,
}, info) => {
  const email = newEmail(info.project.name);
  await page.goto("/register");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill("Honeypot-pass-1");
  await page.getByLabel("Repeat the password").fill("Honeypot-pass-1");
  // What a bot that fills every field does; a person never sees or reaches this one.
  const honeypot = page.locator("input[name=remarks]");
  await expect(honeypot).toHaveAttribute("tabindex", "-1");
  await expect(honeypot).toHaveAttribute("autocomplete", "off");
  await expect(honeypot).not.toBeInViewport();
  await honeypot.fill("https://spam.example", { force: true });
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("alert")).toHaveText(
    "This form could not be accepted: it may have been open for too long. Please send it again.",
  );
  await expect(page.getByLabel("Email")).toHaveValue(email);
  await expect(page.getByLabel("Password", { exact: true })).toHaveValue("");
  await expect(honeypot).toHaveValue("");
  const cmsSignIn = () =>
    fetch(`${cmsUrl()}/api/auth/local`, {
      method: "POST",
      headers: { "content-type": "application/json", ...SITE_SECRET_HEADERS },
      body: JSON.stringify({ identifier: email, password: "Honeypot-pass-1" }),
    });
  expect((await cmsSignIn()).status).toBe(400);

  // A person sends the same form again: registered.
  await page.getByLabel("Password", { exact: true }).fill("Honeypot-pass-1");
  await page.getByLabel("Repeat the password").fill("Honeypot-pass-1");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("status")).toHaveText(REGISTERED);
  expect((await cmsSignIn()).status).toBe(200);
});

test("a form posted from another site is refused", async ({ request }, info) => {
  const email = newEmail(info.project.name);
  await registerInCms(email, "Cross-site-1");
  const response = await request.post("/sign-in", {
    headers: { origin: "https://evil.example" },
    form: { email, password: "Cross-site-1" },
    maxRedirects: 0,
  });
  // 400 from React Router itself: it refuses a document POST whose Origin is not the
  // request's, before any action runs (the JSON endpoints' own guard answers 403 instead).
  expect(response.status()).toBe(400);
  expect(response.headers()["set-cookie"] ?? "").not.toContain("session_token=");
});
