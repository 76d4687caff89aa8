import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";

import { registerInCms, signInInBrowser } from "../support/accounts.ts";
import { totpCode } from "../support/totp.ts";
import { withinOneStep } from "../support/totp-step.ts";
import { extendDeadline } from "../support/clock-deadline.ts";
import { e2eEnv } from "../support/e2e-env.ts";
import { previewLink } from "../support/preview-link.ts";
import { StrapiAdmin } from "../support/strapi-admin.ts";

// axe-core on every page type of the site, in the light and the dark colour scheme: no serious or
// critical violation of WCAG 2.1 A/AA or axe's best practices. axe runs as a script in the page,
// so this spec turns JavaScript on (test.use below) and runs once; the markup it checks is the
// server's: as sent on content pages (they do not hydrate), hydrated on the auth pages (the same
// elements: hydration adds no markup to those but the header's account name).

// Whichever project runs it (js-off's worker: it evens out the two workers' time).
test.use({ javaScriptEnabled: true });

const SCHEMES = ["light", "dark"] as const;
// One axe scan's budget: about 1 to 2 s measured at load 8 on the 2-core machine, 5 to 12 s at load 25 to 36.
const AXE_SCAN_MS = 20_000;
const PASSWORD = "Accessibility-e2e-1";
let counter = 0;

/** The serious and critical violations on the page as it is now, one line each (readable when it fails). */
async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"])
    .analyze();
  return results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .flatMap((violation) =>
      violation.nodes.map(
        (node) => `${violation.id} (${violation.impact}) at ${node.target.join(" ")}: ${violation.help}`,
      ),
    );
}

async function expectAccessible(page: Page, what: string) {
  // Both colour schemes on the same page: the CSS follows prefers-color-scheme (app/styles/tokens.css).
  for (const colorScheme of SCHEMES) {
    await page.emulateMedia({ colorScheme });
    // An axe scan is this test's own work, seconds of CPU on a busy machine, not a wait for the
    // site: each one adds its budget to the test's, so the flow keeps the default budget however
    // many pages it checks.
    extendDeadline(AXE_SCAN_MS);
    expect(await seriousViolations(page), `${what}, ${colorScheme}`).toEqual([]);
  }
}

const PUBLIC_PAGES = [
  { what: "the home page", path: "/", heading: "Welcome to Acme" },
  { what: "a CMS page with an image", path: "/company", heading: "Company" },
  { what: "a nested CMS page", path: "/company/careers/engineering", heading: "Engineering at Acme" },
  { what: "the 404 page", path: "/no-such-page", heading: /not found/i },
  { what: "the German home page", path: "/de", heading: "Willkommen bei Acme" },
  { what: "the contact page with its forms", path: "/contact", heading: "Contact" },
  { what: "the blog", path: "/blog", heading: "Blog" },
  { what: "an article", path: "/blog/shipping-twice-a-day", heading: "How we ship twice a day" },
  { what: "a blog category", path: "/blog/category/engineering", heading: /engineering/i },
  { what: "sign-in", path: "/sign-in", heading: "Sign in" },
  { what: "register", path: "/register", heading: /create|register/i },
  { what: "forgot password", path: "/forgot-password", heading: /password/i },
  { what: "reset password", path: "/reset-password?code=not-checked-until-sent", heading: /password/i },
  { what: "reset password without its code", path: "/reset-password", heading: /.+/ },
  { what: "search results, matches marked", path: "/search?q=acme", heading: "Search" },
  { what: "the German search, nothing found", path: "/de/search?q=zzzzqx", heading: "Suche" },
];

for (const { what, path, heading } of PUBLIC_PAGES) {
  test(`${what} (${path}) has no serious or critical accessibility violation`, async ({ page }) => {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(heading);
    await expectAccessible(page, what);
  });
}

test("a form with errors has no serious or critical accessibility violation", async ({ page }) => {
  await page.goto("/sign-in");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.locator(".field-error").first()).toBeVisible();
  await expectAccessible(page, "sign-in with field errors");
});

test("a content form's answer with messages next to its fields has no serious or critical accessibility violation", async ({
  page,
}) => {
  await page.goto("/contact");
  await page.getByRole("button", { name: "Send message" }).click();
  await expect(page.locator(".field-error").first()).toBeVisible();
  await expectAccessible(page, "the contact form with field errors");
});

test("the phone menu, open, has no serious or critical accessibility violation", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/");
  const main = page.getByRole("navigation", { name: "Main" });
  await expect(main).toBeHidden();
  // Keyboard: the menu button is reachable and opens with Space (a checkbox and its label, no script).
  await page.getByRole("checkbox", { name: "Menu" }).focus();
  await page.keyboard.press("Space");
  await expect(main.getByRole("link", { name: "Company" })).toBeVisible();
  await expectAccessible(page, "home with the phone menu open");
});

test("the navbar's drop-down, opened by keyboard, has no serious or critical accessibility violation", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/");
  const nav = page.getByRole("navigation", { name: "Main" });
  // Keyboard: the summary is reachable and opens with Enter (a <details>, no script: docs/links.md).
  await nav.locator("summary", { hasText: "More" }).focus();
  await page.keyboard.press("Enter");
  await expect(nav.getByRole("link", { name: "Engineering at Acme" })).toBeVisible();
  await expectAccessible(page, "home with the navbar's drop-down open");
});

test("the account pages, two-factor set-up and its sign-in step have no serious or critical violation", async ({
  page,
}, info) => {
  const email = `e2e-a11y-${info.project.name}-${Date.now()}-${counter++}@example.com`;
  await registerInCms(email, PASSWORD);
  await signInInBrowser(page, email, PASSWORD);
  await expect(page).toHaveURL(/\/account$/);
  await expectAccessible(page, "account");

  await page.goto("/account/two-factor");
  await expect(page.getByTestId("two-factor-status")).toContainText("Two-factor authentication is off.");
  await expectAccessible(page, "two-factor, off");
  await page.getByLabel("Current password").fill(PASSWORD);
  await page.getByRole("button", { name: "Set up two-factor authentication" }).click();
  await expect(page.getByRole("img", { name: "QR code for your authenticator app" }).locator("svg")).toBeVisible();
  await expectAccessible(page, "two-factor, QR code");

  const secret = (await page.getByTestId("two-factor-secret").textContent()) ?? "";
  await withinOneStep(10_000, extendDeadline);
  await page.getByLabel("Code from your app").fill(totpCode(secret));
  await page.getByRole("button", { name: "Turn on" }).click();
  await expect(page.getByTestId("recovery-codes").locator("li")).toHaveCount(10);
  await expectAccessible(page, "two-factor, recovery codes");

  await page.context().clearCookies();
  await signInInBrowser(page, email, PASSWORD);
  await expect(page).toHaveURL(/\/sign-in\/two-factor/);
  await expectAccessible(page, "sign-in, the code step");
});

// A page in preview hydrates and its bar says it follows the CMS's saves (docs/live-preview.md).
test("a page in preview, hydrated and listening, has no serious or critical violation", async ({ page }) => {
  const slug = `a11y-preview-${Date.now().toString(36)}`;
  await (await StrapiAdmin.login(e2eEnv("E2E_CMS_URL"))).pageWithDraft(slug, "Published words", "Draft words");
  await page.goto(previewLink(e2eEnv("E2E_PREVIEW_SECRET"), { path: `/${slug}`, locale: "en", status: "draft" }));
  await expect(page.getByRole("complementary", { name: "Preview" })).toContainText(
    "It updates when you save in the CMS.",
  );
  await expectAccessible(page, "a page in preview");
});
