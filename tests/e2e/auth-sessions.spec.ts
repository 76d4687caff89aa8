import { expect, test } from "@playwright/test";

import { registerInCms, signInInBrowser as signIn } from "../support/accounts.ts";

// Sessions under the user's control, against the real Strapi, in Chromium with JavaScript on and off.
let counter = 0;
const newEmail = (project: string) => `e2e-sessions-${project}-${Date.now()}-${counter++}@example.com`;

test("sign out everywhere: both browsers are signed out, signing in again works", async ({ page, browser }, info) => {
  const email = newEmail(info.project.name);
  await registerInCms(email, "Everywhere-1");
  await signIn(page, email, "Everywhere-1");
  await expect(page).toHaveURL(/\/account$/);
  // A second browser (another device), signed in on its own.
  const other = await browser.newContext({ baseURL: new URL(page.url()).origin });
  const otherPage = await other.newPage();
  await signIn(otherPage, email, "Everywhere-1");
  await expect(otherPage.getByTestId("account-email")).toHaveText(email);

  await page.getByRole("button", { name: "Sign out everywhere" }).click();
  await expect(page).toHaveURL(/\/sign-in$/);
  await page.goto("/account");
  await expect(page).toHaveURL(/\/sign-in\?redirectTo=%2Faccount$/);
  await otherPage.goto("/account");
  await expect(otherPage).toHaveURL(/\/sign-in\?redirectTo=%2Faccount$/);
  await other.close();

  await signIn(page, email, "Everywhere-1");
  await expect(page.getByTestId("account-email")).toHaveText(email);
});

test("remember me: unchecked, the session cookie ends with the browser; checked, it lasts", async ({ page }, info) => {
  const email = newEmail(info.project.name);
  await registerInCms(email, "Remember-me-1");
  const sessionCookie = async () =>
    (await page.context().cookies()).find((cookie) => cookie.name.endsWith("session_token"));

  await signIn(page, email, "Remember-me-1");
  await expect(page).toHaveURL(/\/account$/);
  expect((await sessionCookie())?.expires).toBe(-1);
  await page.context().clearCookies();

  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill("Remember-me-1");
  await page.getByLabel("Remember me").check();
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL(/\/account$/);
  const expires = (await sessionCookie())?.expires ?? 0;
  expect(expires * 1000).toBeGreaterThan(Date.now() + 6 * 24 * 60 * 60 * 1000);
});

test("after a password change the page says so and this browser stays signed in", async ({ page }, info) => {
  const email = newEmail(info.project.name);
  await registerInCms(email, "Rotate-me-1");
  await signIn(page, email, "Rotate-me-1");
  await page.getByLabel("Current password").fill("Rotate-me-1");
  await page.getByLabel("New password", { exact: true }).fill("Rotated-2x");
  await page.getByLabel("Repeat the new password").fill("Rotated-2x");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByRole("status")).toHaveText("Your password has been changed.");
  await page.goto("/account");
  await expect(page.getByTestId("account-email")).toHaveText(email);
});

// A taken name (409) is tested in tests/integration/auth-session-control.test.ts.
test("the account page changes the name; another user's address is refused next to the field", async ({
  page,
}, info) => {
  const email = newEmail(info.project.name);
  const other = newEmail(info.project.name);
  await registerInCms(email, "Rename-me-1");
  await registerInCms(other, "Rename-me-1");
  await signIn(page, email, "Rename-me-1");
  await expect(page.getByTestId("account-name")).toHaveText(email);

  await page.getByLabel("Name", { exact: true }).fill(other.toUpperCase());
  await page.getByRole("button", { name: "Change name" }).click();
  await expect(page.getByText("A name cannot contain @.")).toBeVisible();
  await expect(page.getByTestId("account-name")).toHaveText(email);

  await page.getByLabel("Name", { exact: true }).fill(`Renamed ${info.project.name} ${counter}`);
  await page.getByRole("button", { name: "Change name" }).click();
  await expect(page.getByRole("status")).toHaveText("Your name has been changed.");
  await expect(page.getByTestId("account-name")).toHaveText(`Renamed ${info.project.name} ${counter}`);
});

test("delete the account: a wrong password is refused; the right one deletes it and signs out", async ({
  page,
}, info) => {
  const email = newEmail(info.project.name);
  await registerInCms(email, "Delete-me-1");
  await signIn(page, email, "Delete-me-1");
  await expect(page).toHaveURL(/\/account$/);

  await page.getByLabel("Your password").fill("Not-my-password");
  await page.getByRole("button", { name: "Delete my account" }).click();
  await expect(page.getByText("This is not your current password.")).toBeVisible();

  await page.getByLabel("Your password").fill("Delete-me-1");
  await page.getByRole("button", { name: "Delete my account" }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.goto("/account");
  await expect(page).toHaveURL(/\/sign-in\?redirectTo=%2Faccount$/);
  await signIn(page, email, "Delete-me-1");
  await expect(page.getByRole("alert")).toHaveText("Wrong email or password.");
});
