import { expect, test, type Page } from "@playwright/test";

import { registerInCms } from "../support/accounts.ts";

// Issue 14, point 4, in Chromium with JavaScript on and off, against the seeded demo site (the
// company page has a German translation, /positions has none): the header's locale switcher, the
// German sign-in page and its German error, and signing in from it back to a German page.
let counter = 0;
const newEmail = (project: string) => `e2e-locale-${project}-${Date.now()}-${counter++}@example.com`;

const switcher = (page: Page) => page.getByRole("navigation", { name: /^(Language|Sprache)$/ });

test("the switcher leads from an English page to its German translation and back", async ({ page }) => {
  await page.goto("/company");
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await expect(switcher(page).getByRole("link", { name: "English" })).toHaveAttribute("aria-current", "true");
  await switcher(page).getByRole("link", { name: "Deutsch" }).click();
  await expect(page).toHaveURL(/\/de\/company$/);
  await expect(page.locator("html")).toHaveAttribute("lang", "de");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Unternehmen");
  await expect(switcher(page)).toHaveAccessibleName("Sprache");
  await expect(switcher(page).getByRole("link", { name: "Deutsch" })).toHaveAttribute("aria-current", "true");

  await switcher(page).getByRole("link", { name: "English" }).click();
  await expect(page).toHaveURL(/\/company$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Company");
});

test("on a page without a translation the switcher leads to the German home page", async ({ page }) => {
  await page.goto("/positions");
  await switcher(page).getByRole("link", { name: "Deutsch" }).click();
  await expect(page).toHaveURL(/\/de$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Willkommen bei Acme");
});

test("the German sign-in page shows a German error, then signs in and lands on a German page", async ({
  page,
}, info) => {
  const email = newEmail(info.project.name);
  await registerInCms(email, "Richtiges-Pferd-1");
  // From the German header: its sign-in link leads to the German sign-in page.
  await page.goto("/de/company");
  await page.locator("header").getByRole("link", { name: "Anmelden" }).click();
  await expect(page).toHaveURL(/\/de\/sign-in$/);
  await expect(page).toHaveTitle("Anmelden | Acme");

  await page.getByLabel("E-Mail").fill(email);
  await page.getByLabel("Passwort", { exact: true }).fill("Falsches-Pferd-1");
  await page.getByRole("button", { name: "Anmelden", exact: true }).click();
  await expect(page.getByRole("alert")).toHaveText("E-Mail-Adresse oder Passwort ist falsch.");
  await expect(page.locator("html")).toHaveAttribute("lang", "de");

  await page.goto(`/de/sign-in?redirectTo=${encodeURIComponent("/de/company")}`);
  await page.getByLabel("E-Mail").fill(email);
  await page.getByLabel("Passwort", { exact: true }).fill("Richtiges-Pferd-1");
  await page.getByRole("button", { name: "Anmelden", exact: true }).click();
  await expect(page).toHaveURL(/\/de\/company$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Unternehmen");
  // The German header's account link leads to the German account page. With JavaScript the sign-in
  // page hydrated and its redirect was followed in the browser, which renders this page there and
  // reads the session (the name; a page load of a content page would say "Konto": decision 0035):
  // let that read finish first.
  const account = page.getByTestId("signed-in-as");
  await expect(account).toHaveText(info.project.name === "js-on" ? email : "Konto");
  await account.click();
  await expect(page).toHaveURL(/\/de\/account$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Ihr Konto");
});
