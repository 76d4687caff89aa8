import { expect, test } from "@playwright/test";

import { registerInCms } from "../support/accounts.ts";
import { waitForMail } from "../support/cms-mail.ts";
import { StrapiAdmin } from "../support/strapi-admin.ts";
import { e2eEnv } from "../support/e2e-env.ts";

// The confirm-email page with JavaScript on and off (both projects): asking for a new link, the
// mail's link (to the site), the button that confirms, and the link refused the second time.
// The run's CMS has email confirmation off (other specs sign in right after registering): the
// account is marked unconfirmed by an administrator, which is what the page needs.
const cmsUrl = () => e2eEnv("E2E_CMS_URL");
const mailDir = () => e2eEnv("E2E_MAIL_DIR");

test("a new confirmation link is asked for, and the mail's link confirms the address once", async ({ page }, info) => {
  const email = `confirm-${info.project.name}-${Date.now()}@example.com`;
  await registerInCms(email, "Confirm-pass-1");
  await (await StrapiAdmin.login(cmsUrl())).setUserConfirmed(email, false);

  const before = Date.now();
  await page.goto("/confirm-email");
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Send a new confirmation link" }).click();
  await expect(page.getByRole("status")).toContainText(`If an account for ${email} is waiting for its confirmation`);

  const mail = await waitForMail(mailDir(), email, { after: before });
  expect(mail.confirmLink).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/confirm-email\?confirmation=[0-9a-f]{40}$/);
  await page.goto(mail.confirmLink!);
  await expect(page.getByRole("heading", { name: "Confirm your email address" })).toBeVisible();
  await page.getByRole("button", { name: "Confirm my email address" }).click();
  await expect(page.getByRole("status")).toContainText("your email address is confirmed");
  await page.getByRole("link", { name: "Sign in" }).last().click();
  await expect(page).toHaveURL(/\/sign-in$/);

  // The link works once; the page then offers a new one.
  await page.goto(mail.confirmLink!);
  await page.getByRole("button", { name: "Confirm my email address" }).click();
  await expect(page.getByRole("heading", { name: "This link did not work" })).toBeVisible();
  await expect(page.getByRole("alert").first()).toContainText("invalid or was already used");
  await expect(page.getByRole("button", { name: "Send a new confirmation link" })).toBeVisible();
});

test("/de/confirm-email speaks German, confirms the mail's code, and is neither cached nor framable", async ({
  page,
}, info) => {
  const email = `bestaetigen-${info.project.name}-${Date.now()}@example.com`;
  await registerInCms(email, "Confirm-pass-1");
  await (await StrapiAdmin.login(cmsUrl())).setUserConfirmed(email, false);

  const before = Date.now();
  await page.goto("/de/confirm-email");
  await expect(page.locator("html")).toHaveAttribute("lang", "de");
  await expect(page.getByRole("heading", { name: "Bestätigen Sie Ihre E-Mail-Adresse" })).toBeVisible();
  await page.getByLabel("E-Mail").fill(email);
  await page.getByRole("button", { name: "Neuen Bestätigungslink senden" }).click();
  await expect(page.getByRole("status")).toContainText(`Falls ein Konto für ${email} auf seine Bestätigung wartet`);

  // The mail's link is the default locale's (the CMS does not know the visitor's); its code works here too.
  const mail = await waitForMail(mailDir(), email, { after: before });
  const code = new URL(mail.confirmLink!).searchParams.get("confirmation");
  await page.goto(`/de/confirm-email?confirmation=${code}`);
  await page.getByRole("button", { name: "Meine E-Mail-Adresse bestätigen" }).click();
  await expect(page.getByRole("status")).toContainText("Ihre E-Mail-Adresse ist bestätigt");
  await page.getByRole("main").getByRole("link", { name: "Anmelden" }).click();
  await expect(page).toHaveURL(/\/de\/sign-in$/);

  const answer = await page.request.get("/de/confirm-email?confirmation=0123", { maxRedirects: 0 });
  expect(answer.status()).toBe(200);
  expect(answer.headers()["x-cache"]).toBeUndefined();
  expect(answer.headers()["x-frame-options"]).toBe("SAMEORIGIN");
  expect((await page.request.get("/xx/confirm-email")).status()).toBe(404);
});
