import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";

import { extendDeadline } from "../support/clock-deadline.ts";
import { e2eEnv } from "../support/e2e-env.ts";
import { adminPageForThisFile } from "../support/strapi-admin-ui.ts";

// Issue 32, point 3, in the real admin UI: the scheduled state shows in the Content Manager's list
// of every scheduled type (the site-cache plugin's "Schedule" column, admin/src/schedule-column.jsx),
// and the column is accessible (axe, scoped to it: Strapi's own list is not this project's markup).
// js-on only (playwright.config.ts): the admin UI needs JavaScript.

test.describe.configure({ timeout: 180_000 });
const adminPage = adminPageForThisFile(() => e2eEnv("E2E_CMS_URL"));
const AXE_SCAN_MS = 20_000;

test("the article list shows the seeded article's schedule: Publishes, with its time; unscheduled rows a dash", async () => {
  const page = adminPage();
  await page.goto(
    "/admin/content-manager/collection-types/api::article.article?page=1&pageSize=10&sort=title:ASC&plugins[i18n][locale]=en",
  );
  const table = page.getByRole("main").getByRole("grid");
  // Strapi's list draws its header cells as grid cells.
  await expect(table.getByRole("gridcell", { name: "Schedule", exact: true })).toBeVisible({ timeout: 120_000 });
  const row = table.getByRole("row").filter({ hasText: "Acme 4.0 preview" });
  const cell = row.locator("[data-site-cache-schedule]");
  await expect(cell.getByText("Publishes", { exact: true })).toBeVisible();
  await expect(cell.locator("time")).toHaveAttribute("datetime", "2099-06-01T09:00:00.000Z");
  await expect(cell.locator("time")).toContainText("2099");
  const published = table.getByRole("row").filter({ hasText: "Acme 3.0 is out" });
  await expect(published.locator("[data-site-cache-schedule]")).toHaveText("-");

  extendDeadline(AXE_SCAN_MS);
  const results = await new AxeBuilder({ page })
    .include("[data-site-cache-schedule]")
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"])
    .analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(serious.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  expect(results.passes.length).toBeGreaterThan(0);
});
