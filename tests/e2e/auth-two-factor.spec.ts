import { expect, test, type Page } from "@playwright/test";

import { registerInCms, signInByRequest, signInInBrowser as signIn, signInWithOidc } from "../support/accounts.ts";
import { waitForMail } from "../support/cms-mail.ts";
import { totpCode } from "../support/totp.ts";
import { stepTime, withinOneStep } from "../support/totp-step.ts";
import { extendDeadline } from "../support/clock-deadline.ts";
import { e2eEnv, siteOrigin } from "../support/e2e-env.ts";

// Two-factor authentication through the real Strapi, in Chromium with JavaScript on and off:
// enrolment on /account/two-factor, the code asked after the password, recovery codes, turning it
// off, and the new forms refusing another site. Codes come from the secret the page shows
// (tests/support/totp.ts), as an authenticator app would make them. Sign-ins that only set a
// test up go through the site's JSON sign-in (signInByRequest): the form has specs of its own.

let counter = 0;
const newEmail = (project: string) => `e2e-two-factor-${project}-${Date.now()}-${counter++}@example.com`;
const PASSWORD = "Two-factor-e2e-1";
const ENABLED = "Two-factor authentication is now on. Every other session of your account has been signed out.";

/**
 * Turns two-factor on for the signed-in user of `page`: the key shown and the ten recovery codes.
 * `asAPersonDoes`: from /account by its link, a wrong password first (one test does it; the
 * others, for which enrolling is set-up, go straight to the form: each step costs seconds under load).
 */
async function enrol(page: Page, { asAPersonDoes = false } = {}) {
  if (asAPersonDoes) {
    await page.goto("/account");
    await page.getByRole("link", { name: "Manage two-factor authentication" }).click();
    await expect(page).toHaveURL(/\/account\/two-factor$/);
  } else {
    await page.goto("/account/two-factor");
  }
  await expect(page.getByTestId("two-factor-status")).toContainText("Two-factor authentication is off.");

  if (asAPersonDoes) {
    await page.getByLabel("Current password").fill("Not-the-password-1");
    await page.getByRole("button", { name: "Set up two-factor authentication" }).click();
    await expect(page.getByText("This is not your current password.")).toBeVisible();
    // The page empties password fields after a refusal (with JavaScript, once it has shown it).
    await expect(page.getByLabel("Current password")).toHaveValue("");
  }
  await page.getByLabel("Current password").fill(PASSWORD);
  await page.getByRole("button", { name: "Set up two-factor authentication" }).click();
  await expect(page.getByRole("img", { name: "QR code for your authenticator app" }).locator("svg")).toBeVisible();
  const secret = (await page.getByTestId("two-factor-secret").textContent()) ?? "";
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);

  // The codes of this step and the next one must stay valid while the test goes on: with 10 s
  // left in this step, the CMS (one step either side) takes this step's code for 40 s more and
  // the next one's for 70 s, longer than any test here runs after it. The wait for the step's
  // boundary, when there is one, is added to the test's deadline.
  await withinOneStep(10_000, extendDeadline);
  const enrolledAt = Date.now();
  await page.getByLabel("Code from your app").fill(totpCode(secret, enrolledAt));
  await page.getByRole("button", { name: "Turn on" }).click();
  await expect(page.getByRole("status")).toHaveText(ENABLED);
  const recoveryCodes = await page.getByTestId("recovery-codes").locator("li").allTextContents();
  expect(recoveryCodes).toHaveLength(10);
  await expect(page.getByTestId("two-factor-status")).toContainText("Recovery codes left: 10.");
  return { secret, recoveryCodes, enrolledAt };
}

async function signOut(page: Page) {
  await page.goto("/account");
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(page).not.toHaveURL(/\/account$/);
  await page.goto("/account");
  await expect(page).toHaveURL(/\/sign-in\?redirectTo=%2Faccount$/);
}

const mailDir = () => e2eEnv("E2E_MAIL_DIR");

/** Asks for a reset mail and sets `password` from its link: the reset form's answer is left on `page`. */
async function resetPassword(page: Page, email: string, password: string) {
  const before = Date.now();
  await page.goto("/forgot-password");
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Send the link" }).click();
  await expect(page.getByRole("status")).toContainText("If an account exists for");
  const mail = await waitForMail(mailDir(), email, { after: before });
  await page.goto(mail.resetLink!);
  await page.getByLabel("New password", { exact: true }).fill(password);
  await page.getByLabel("Repeat the new password").fill(password);
  await page.getByRole("button", { name: "Save the new password" }).click();
}

/** The password step, then the code step with `code`. */
async function signInWithCode(page: Page, email: string, code: string) {
  await signIn(page, email, PASSWORD);
  await expect(page).toHaveURL(/\/sign-in\/two-factor\?redirectTo=%2Faccount$/);
  await page.getByLabel("Code").fill(code);
  await page.getByRole("button", { name: "Verify" }).click();
}

test("enrol, recovery codes shown once, the session before it ended; then sign-in asks for the code", async ({
  page,
  browser,
}, info) => {
  const email = newEmail(info.project.name);
  await registerInCms(email, PASSWORD);
  await signInByRequest(page.context(), email, PASSWORD);
  // Another device, signed in before two-factor was turned on.
  const other = await browser.newContext({ baseURL: siteOrigin() });
  await signInByRequest(other, email, PASSWORD);
  expect((await other.request.get("/api/cms-proxy/users/me")).status()).toBe(200);

  const { secret, enrolledAt } = await enrol(page, { asAPersonDoes: true });
  // Shown once: the next visit shows no codes, only how many are left.
  await page.reload();
  await expect(page.getByTestId("two-factor-status")).toContainText("Recovery codes left: 10.");
  await expect(page.getByTestId("recovery-codes")).toHaveCount(0);
  await expect(page.getByTestId("two-factor-secret")).toHaveCount(0);
  // This browser goes on in its new session; the other device's session has ended.
  await page.goto("/account");
  await expect(page.getByTestId("account-email")).toHaveText(email);
  const otherPage = await other.newPage();
  await otherPage.goto("/account");
  await expect(otherPage).toHaveURL(/\/sign-in\?redirectTo=%2Faccount$/);
  await other.close();

  await signOut(page);
  await signInWithCode(page, email, "000000");
  await expect(page.getByRole("alert")).toHaveText(
    "That code is not correct. Check the time on your device, or use a recovery code.",
  );
  await expect(page).toHaveURL(/\/sign-in\/two-factor/);
  await page.goto("/account");
  await expect(page).toHaveURL(/\/sign-in\?redirectTo=%2Faccount$/);

  await signInWithCode(page, email, totpCode(secret, stepTime(1, enrolledAt)));
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByTestId("account-email")).toHaveText(email);
});

test("a used code is refused, a recovery code works once, and turning it off needs password and code", async ({
  page,
}, info) => {
  const email = newEmail(info.project.name);
  await registerInCms(email, PASSWORD);
  await signInByRequest(page.context(), email, PASSWORD);
  const { secret, recoveryCodes, enrolledAt } = await enrol(page);
  await signOut(page);

  // The code that turned it on, again: refused.
  await signInWithCode(page, email, totpCode(secret, enrolledAt));
  await expect(page.getByRole("alert")).toHaveText("That code was already used. Wait for the next code in your app.");
  await page.getByLabel("Code").fill(recoveryCodes[0]!);
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByTestId("account-email")).toHaveText(email);
  await signOut(page);

  await signInWithCode(page, email, recoveryCodes[0]!);
  await expect(page.getByRole("alert")).toContainText("That code is not correct.");
  await page.getByLabel("Code").fill(recoveryCodes[1]!.toLowerCase().replace("-", " "));
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByTestId("account-email")).toHaveText(email);

  await page.goto("/account/two-factor");
  await expect(page.getByTestId("two-factor-status")).toContainText("Recovery codes left: 8.");
  const off = page.locator("form", { has: page.getByRole("button", { name: "Turn off" }) });
  await off.getByLabel("Current password").fill(PASSWORD);
  await off.getByLabel("Code").fill("000000");
  await off.getByRole("button", { name: "Turn off" }).click();
  await expect(page.getByRole("alert")).toContainText("That code is not correct.");
  await expect(off.getByLabel("Current password")).toHaveValue("");
  await off.getByLabel("Current password").fill(PASSWORD);
  await off.getByLabel("Code").fill(recoveryCodes[2]!);
  await off.getByRole("button", { name: "Turn off" }).click();
  await expect(page.getByRole("status")).toHaveText("Two-factor authentication is now off.");
  await expect(page.getByTestId("two-factor-status")).toContainText("Two-factor authentication is off.");

  await signOut(page);
  await signIn(page, email, PASSWORD);
  await expect(page).toHaveURL(/\/account$/);
});

test("the German pages: the code page and the settings are under /de/", async ({ page }, info) => {
  const email = newEmail(info.project.name);
  await registerInCms(email, PASSWORD);
  await signInByRequest(page.context(), email, PASSWORD);
  const { recoveryCodes } = await enrol(page);
  await signOut(page);
  await page.goto("/de/sign-in");
  await page.getByLabel("E-Mail").fill(email);
  await page.getByLabel("Passwort", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Anmelden", exact: true }).click();
  await expect(page).toHaveURL(/\/de\/sign-in\/two-factor\?redirectTo=%2Fde%2Faccount$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Code eingeben");
  await page.getByLabel("Bestätigungscode").fill(recoveryCodes[0]!);
  await page.getByRole("button", { name: "Bestätigen" }).click();
  await expect(page).toHaveURL(/\/de\/account$/);
  await page.getByRole("link", { name: "Zwei-Faktor-Authentifizierung verwalten" }).click();
  await expect(page).toHaveURL(/\/de\/account\/two-factor$/);
  await expect(page.getByTestId("two-factor-status")).toContainText("Verbleibende Wiederherstellungscodes: 9.");
});

test("the code page without a pending sign-in says so and links back to sign-in", async ({ page }) => {
  await page.goto("/sign-in/two-factor?redirectTo=%2Faccount");
  await expect(page.getByRole("alert")).toContainText("This sign-in has expired");
  await page.getByRole("link", { name: "Sign in again" }).click();
  await expect(page).toHaveURL(/\/sign-in\?redirectTo=%2Faccount$/);
});

test("each new form refuses a post from another site, and nothing changes", async ({ page }, info) => {
  const email = newEmail(info.project.name);
  await registerInCms(email, PASSWORD);
  await signInByRequest(page.context(), email, PASSWORD);
  const foreign = { referer: "https://evil.example/", "sec-fetch-site": "cross-site" };
  const post = (path: string, form: Record<string, string>) =>
    page.request.post(path, { headers: foreign, form, maxRedirects: 0 });

  expect((await post("/account/two-factor", { intent: "setup", currentPassword: PASSWORD })).status()).toBe(403);
  const { recoveryCodes } = await enrol(page);
  expect((await post("/account/two-factor", { intent: "enable", code: "123456" })).status()).toBe(403);
  expect((await post("/account/two-factor", { intent: "recovery-codes", code: recoveryCodes[0]! })).status()).toBe(403);
  const disable = { intent: "disable", currentPassword: PASSWORD, code: recoveryCodes[1]! };
  expect((await post("/account/two-factor", disable)).status()).toBe(403);
  await page.goto("/account/two-factor");
  await expect(page.getByTestId("two-factor-status")).toContainText("Recovery codes left: 10.");

  await signOut(page);
  await signIn(page, email, PASSWORD);
  await expect(page).toHaveURL(/\/sign-in\/two-factor/);
  const step = await post("/sign-in/two-factor", { code: recoveryCodes[2]!, redirectTo: "/account" });
  expect(step.status()).toBe(403);
  expect(step.headers()["set-cookie"] ?? "").not.toContain("session_token=");
  await page.goto("/account");
  await expect(page).toHaveURL(/\/sign-in\?redirectTo=%2Faccount$/);
});

test("a password reset does not skip the code: the new password is saved, then the code is asked", async ({
  page,
}, info) => {
  const email = newEmail(info.project.name);
  await registerInCms(email, PASSWORD);
  await signInByRequest(page.context(), email, PASSWORD);
  const { recoveryCodes } = await enrol(page);
  await signOut(page);

  await resetPassword(page, email, "Reset-with-2fa-1");
  await expect(page).toHaveURL(/\/sign-in\/two-factor\?redirectTo=%2Faccount$/);
  await page.goto("/account");
  await expect(page).toHaveURL(/\/sign-in\?redirectTo=%2Faccount$/);
  await page.goto("/sign-in/two-factor?redirectTo=%2Faccount");
  await page.getByLabel("Code").fill(recoveryCodes[0]!);
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByTestId("account-email")).toHaveText(email);
});

test("a provider's sign-in into an account with two-factor on asks for the code too", async ({ page }, info) => {
  // An account made by the provider's first sign-in, which then got a password (reset by mail).
  const login = `two-factor-oidc-${info.project.name}-${Date.now()}`;
  const email = `${login}@example.com`;
  await signInWithOidc(page, login);
  await expect(page.getByTestId("account-email")).toHaveText(email);
  await signOut(page);
  await resetPassword(page, email, PASSWORD);
  await expect(page.getByTestId("account-email")).toHaveText(email);
  const { recoveryCodes } = await enrol(page);
  await signOut(page);

  await signInWithOidc(page, login);
  await expect(page).toHaveURL(/\/sign-in\/two-factor\?redirectTo=%2Faccount$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Enter your code");
  await page.goto("/account");
  await expect(page).toHaveURL(/\/sign-in\?redirectTo=%2Faccount$/);
  await page.goto("/sign-in/two-factor?redirectTo=%2Faccount");
  await page.getByLabel("Code").fill(recoveryCodes[0]!);
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByTestId("account-email")).toHaveText(email);
  // The session is the provider's, as without two-factor ("Signed in with").
  await expect(page.getByText("local-oidc", { exact: true })).toBeVisible();
});
