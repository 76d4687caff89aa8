import { expect, test, type Page } from "@playwright/test";

import { SITE_SECRET_HEADERS } from "../support/site-secret.ts";
import { e2eEnv } from "../support/e2e-env.ts";
import { signInInBrowser } from "../support/accounts.ts";
import { expectFullPageScreenshot } from "../support/full-page-screenshot.ts";

// Screenshots of the main page types at a phone, a tablet and a desktop width, light and dark, compared with
// the committed baselines (visual.spec.ts-snapshots/; `npx playwright test tests/e2e/visual.spec.ts
// --update-snapshots` after an intended change, then look at the new PNGs before committing them).
// Deterministic: the seeded content, a fixed account, system fonts (no downloads), animations and the
// caret off (toHaveScreenshot's defaults), images waited for. A whole page may come out one pixel
// taller or shorter (tests/support/full-page-screenshot.ts: the baselines leave out its last pixel
// row). js-on only (playwright.config.ts): the js-off pages are the same markup.

const WIDTHS = {
  phone: { width: 375, height: 812 },
  tablet: { width: 768, height: 1024 },
  desktop: { width: 1280, height: 800 },
} as const;
const SCHEMES = ["light", "dark"] as const;
// A fixed address: its text is on the account page. Each run's CMS starts from a fresh database.
const EMAIL = "visual-check@example.com";
const PASSWORD = "Visual-check-e2e-1";

/** Every image of the page loaded and decoded, and the web fonts (none: system stacks) ready. */
async function settled(page: Page) {
  for (const image of await page.locator("main img").all()) {
    await image.scrollIntoViewIfNeeded();
    await expect(image).toHaveJSProperty("complete", true);
    expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  }
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await page.evaluate(() => window.scrollTo(0, 0));
}

async function ensureAccount() {
  const response = await fetch(`${e2eEnv("E2E_CMS_URL")}/api/auth/local/register`, {
    method: "POST",
    headers: { "content-type": "application/json", ...SITE_SECRET_HEADERS },
    body: JSON.stringify({ username: EMAIL, email: EMAIL, password: PASSWORD }),
  });
  // 400 "already taken": made by an earlier test of this run (another width or scheme).
  const body = await response.text();
  expect(response.status === 200 || /already taken/i.test(body), body).toBe(true);
}

const PAGES = [
  { name: "home", path: "/", heading: "Welcome to Acme" },
  { name: "cms-page", path: "/company", heading: "Company" },
  { name: "blog", path: "/blog", heading: "Blog" },
  { name: "sign-in", path: "/sign-in", heading: "Sign in" },
  { name: "account", path: "/account", heading: "Your account", signedIn: true },
];

for (const [size, viewport] of Object.entries(WIDTHS)) {
  for (const colorScheme of SCHEMES) {
    test.describe(`${size}, ${colorScheme}`, () => {
      test.use({ viewport, colorScheme });

      for (const { name, path, heading, signedIn } of PAGES) {
        test(`${name} looks as designed`, async ({ page }) => {
          if (signedIn) {
            await ensureAccount();
            await signInInBrowser(page, EMAIL, PASSWORD);
            await expect(page).toHaveURL(/\/account$/);
            // Hydrated: the header shows the account's name (app/components/account-link.tsx).
            await expect(page.getByTestId("signed-in-as")).toHaveText(EMAIL);
          }
          await page.goto(path);
          await expect(page.getByRole("heading", { level: 1 })).toHaveText(heading);
          if (signedIn) await expect(page.getByTestId("signed-in-as")).toHaveText(EMAIL);
          await settled(page);
          await expectFullPageScreenshot(page, `${name}-${size}-${colorScheme}.png`);
        });
      }

      if (size === "phone") {
        test("the phone menu, open, looks as designed", async ({ page }) => {
          await page.goto("/company");
          await page.getByText("Menu", { exact: true }).click();
          await expect(
            page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Jobs" }),
          ).toBeVisible();
          await settled(page);
          await expect(page).toHaveScreenshot(`menu-open-${size}-${colorScheme}.png`);
        });
      }
    });
  }
}
