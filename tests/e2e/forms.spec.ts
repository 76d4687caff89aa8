import { expect, test } from "@playwright/test";

import { readMails } from "../support/cms-mail.ts";
import { e2eEnv } from "../support/e2e-env.ts";

// Content forms (docs/forms.md) in a real browser, JavaScript on and off: the seeded /contact
// page's contact form and the German newsletter sign-up. A plain HTML post either way (content
// pages ship no JavaScript); the answer is the page again, with messages next to the fields or
// the thank-you, and the CMS mails the submission (to files in this stack's E2E_MAIL_DIR).

const mailDir = () => e2eEnv("E2E_MAIL_DIR");

/** The mail sent to `to` whose text holds `marker`, once the CMS has written it. */
async function mailWith(to: string, marker: string) {
  let found: Awaited<ReturnType<typeof readMails>>[number] | undefined;
  await expect
    .poll(async () => {
      found = (await readMails(mailDir())).find((mail) => mail.to === to && mail.text.includes(marker));
      return Boolean(found);
    })
    .toBe(true);
  return found!;
}

test("the contact form shows what is wrong next to each field, keeps what was typed, then sends and mails it", async ({
  page,
}, testInfo) => {
  const email = `visitor-${testInfo.project.name}-${Date.now()}@example.com`;
  await page.goto("/contact");
  const form = page.getByRole("region", { name: "Send us a message" });
  await form.getByLabel("Your name").fill("Ada Visitor");
  await form.getByLabel("Email").fill("not-an-address");
  await form.getByRole("button", { name: "Send message" }).click();

  await expect(form.getByRole("alert")).toHaveText(/correct the fields marked below/);
  const emailField = form.getByLabel("Email");
  await expect(emailField).toHaveAttribute("aria-invalid", "true");
  await expect(emailField).toHaveAccessibleDescription("Please enter an email address such as name@example.com.");
  await expect(form.getByRole("textbox", { name: /^Message/ })).toHaveAccessibleDescription(
    "Please tell us what you would like to ask.",
  );
  await expect(form.getByLabel(/I agree/)).toHaveAccessibleDescription("Please agree to this to send the form.");
  await expect(form.getByLabel("Your name")).toHaveValue("Ada Visitor");

  await emailField.fill(email);
  await form.getByLabel("Topic").selectOption("Jobs");
  await form.getByRole("textbox", { name: /^Message/ }).fill("Is the backend role still open?");
  await form.getByLabel(/I agree/).check();
  await form.getByRole("button", { name: "Send message" }).click();

  await expect(page.getByRole("status")).toHaveText(
    "Thank you for your message. We will answer within two working days.",
  );
  await expect(page.getByRole("button", { name: "Send message" })).toHaveCount(0);
  const mail = await mailWith("hello@example.com", email);
  expect(mail.subject).toBe('New "contact" form submission (/contact)');
  expect(mail.text).toContain("Is the backend role still open?");
  expect(mail.text).toContain("Jobs");
});

test("the German newsletter sign-up answers in German and mails the sign-up", async ({ page }, testInfo) => {
  const email = `leser-${testInfo.project.name}-${Date.now()}@example.com`;
  await page.goto("/de/kontakt");
  const form = page.getByRole("region", { name: "Newsletter" });
  await form.getByRole("button", { name: "Abonnieren" }).click();
  await expect(form.getByLabel("E-Mail")).toHaveAccessibleDescription("Bitte füllen Sie dieses Feld aus.");

  await form.getByLabel("E-Mail").fill(email);
  await form.getByLabel("Auch Produktneuigkeiten senden").check();
  await form.getByRole("button", { name: "Abonnieren" }).click();
  await expect(page.getByRole("status")).toHaveText("Sie sind angemeldet. Die nächste Ausgabe kommt zum Monatsanfang.");
  // The contact form above it is still there, untouched.
  await expect(page.getByRole("button", { name: "Nachricht senden" })).toBeVisible();
  const mail = await mailWith("newsletter@example.com", email);
  expect(mail.subject).toBe('New "newsletter" form submission (/kontakt)');
});
