import { expect, test } from "@playwright/test";

import { registerInCms, signInByRequest, signInInBrowser as signIn, signInWithOidc } from "../support/accounts.ts";
import { waitForMail } from "../support/cms-mail.ts";
import { waitForClock } from "../support/clock-deadline.ts";
import { e2eEnv, siteOrigin } from "../support/e2e-env.ts";

// Account changes that need a proof of identity, against the real Strapi, in Chromium with
// JavaScript on and off (both projects): the change of email, confirmed through the mail the new
// address receives; deleting an account made by a provider sign-in, which needs a recent sign-in
// with the provider (the run's CMS counts 20 s as recent: CMS_FRESH_SIGN_IN_SECONDS, global-setup).
const mailDir = () => e2eEnv("E2E_MAIL_DIR");
const FRESH_SIGN_IN_MS = 20_000;
let counter = 0;
const unique = (project: string) => `${project}-${Date.now()}-${counter++}`;

test("the email changes once the link mailed to the new address is confirmed; other sessions end", async ({
  page,
  browser,
}, info) => {
  const id = unique(info.project.name);
  const oldEmail = `change-${id}@example.com`;
  const newEmail = `changed-${id}@example.com`;
  await registerInCms(oldEmail, "Change-mail-1");
  // Signed in in two browsers without rendering their sign-in pages: the form is not what this
  // test is about (auth.spec.ts), and each rendered sign-in costs seconds on a busy machine.
  await signInByRequest(page.context(), oldEmail, "Change-mail-1");
  await page.goto("/account");
  await expect(page.getByTestId("account-email")).toHaveText(oldEmail);
  const other = await browser.newContext({ baseURL: siteOrigin() });
  await signInByRequest(other, oldEmail, "Change-mail-1");
  expect((await other.request.get("/api/cms-proxy/users/me")).status()).toBe(200);

  // A wrong password changes nothing.
  await page.getByLabel("New email address").fill(newEmail);
  await page.getByLabel("Password (to confirm it is you)").fill("Not-my-password");
  await page.getByRole("button", { name: "Send the confirmation link" }).click();
  await expect(page.getByText("This is not your current password.")).toBeVisible();

  const before = Date.now();
  await page.getByLabel("New email address").fill(newEmail);
  await page.getByLabel("Password (to confirm it is you)").fill("Change-mail-1");
  await page.getByRole("button", { name: "Send the confirmation link" }).click();
  await expect(page.getByRole("status")).toContainText("if it can be used, we have sent it a link");
  await expect(page.getByTestId("account-email")).toHaveText(oldEmail);

  const mail = await waitForMail(mailDir(), newEmail, { after: before });
  expect(mail.emailChangeLink).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/confirm-email-change\?token=[0-9a-f]{64}$/);
  const notice = await waitForMail(mailDir(), oldEmail, { after: before });
  expect(notice.emailChangeLink).toBeUndefined();

  // Opening the link changes nothing; the button does.
  await page.goto(mail.emailChangeLink!);
  await expect(page.getByRole("heading", { name: "Confirm your new email address" })).toBeVisible();
  await page.getByRole("button", { name: "Confirm the new address" }).click();
  await expect(page).toHaveURL(/\/account\?changed=email$/);
  await expect(page.getByRole("status")).toHaveText("Your email address has been changed.");
  await expect(page.getByTestId("account-email")).toHaveText(newEmail);

  const otherPage = await other.newPage();
  await otherPage.goto("/account");
  await expect(otherPage).toHaveURL(/\/sign-in\?redirectTo=%2Faccount$/);
  await other.close();

  // The link works once.
  await page.goto(mail.emailChangeLink!);
  await page.getByRole("button", { name: "Confirm the new address" }).click();
  await expect(page.getByRole("heading", { name: "This link did not work" })).toBeVisible();
  await expect(page.getByRole("alert")).toContainText("invalid or was already used");

  // The old address no longer signs in; the new one does.
  await page.context().clearCookies();
  await signIn(page, oldEmail, "Change-mail-1");
  await expect(page.getByRole("alert")).toHaveText("Wrong email or password.");
  await signIn(page, newEmail, "Change-mail-1");
  await expect(page.getByTestId("account-email")).toHaveText(newEmail);
});

test("an account made by a provider sign-in is deleted from /account right after signing in", async ({
  page,
}, info) => {
  const login = `oidc-leaver-${unique(info.project.name)}`;
  await signInWithOidc(page, login);
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByTestId("account-email")).toHaveText(`${login}@example.com`);
  // No password: the recent sign-in with the provider is the proof.
  await page.getByRole("button", { name: "Delete my account" }).click();
  await expect(page).toHaveURL(/\/$/);
  expect((await page.request.get("/api/cms-proxy/users/me")).status()).toBe(401);
  await page.goto("/account");
  await expect(page).toHaveURL(/\/sign-in\?redirectTo=%2Faccount$/);
});

test("a provider sign-in grown too old is refused, also after a re-sync; signing in again lets the user delete", async ({
  page,
}, info) => {
  const login = `oidc-stale-${unique(info.project.name)}`;
  await signInWithOidc(page, login);
  await expect(page).toHaveURL(/\/account$/);
  // The provider sign-in (the callback) happened before this moment.
  const signedInAt = Date.now();
  // With JavaScript the header reads the session once hydrated; let that read finish before the re-sync.
  await page.waitForLoadState("networkidle");
  // What is awaited is time itself: the sign-in must be older than the CMS's window. The wait
  // moves the test's deadline by as much (the rest is a flow of events, with the default budget).
  await waitForClock(signedInAt + FRESH_SIGN_IN_MS + 1_000 - Date.now());

  // The attack the review found: a re-sync issues a new CMS JWT without asking the provider.
  const resync = await page.request.post("/api/auth/sync-oauth-cms", { headers: { origin: siteOrigin() }, data: {} });
  expect(resync.status()).toBe(200);
  await page.goto("/account");
  await page.getByRole("button", { name: "Delete my account" }).click();
  await expect(page.getByRole("alert")).toHaveText(
    "For your safety, sign in again, then delete the account within 5 minutes.",
  );
  await expect(page.getByTestId("account-email")).toHaveText(`${login}@example.com`);

  // A real round trip to the provider makes it recent again.
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(page).toHaveURL(/\/$/);
  await signInWithOidc(page, login);
  await expect(page).toHaveURL(/\/account$/);
  await page.getByRole("button", { name: "Delete my account" }).click();
  await expect(page).toHaveURL(/\/$/);
  expect((await page.request.get("/api/cms-proxy/users/me")).status()).toBe(401);
});
