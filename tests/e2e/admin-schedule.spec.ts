import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Browser } from "@playwright/test";

import { extendDeadline } from "../support/clock-deadline.ts";
import { e2eEnv } from "../support/e2e-env.ts";
import { signInToAdmin } from "../support/strapi-admin-ui.ts";

// Issue 32, point 3, in the real admin UI: the scheduled state shows in the Content Manager's list
// of every scheduled type (the site-cache plugin's "Schedule" column, admin/src/schedule-column.jsx),
// and the column is accessible (axe, scoped to it: Strapi's own list is not this project's markup).
// js-on only (playwright.config.ts): the admin UI needs JavaScript.

test.describe.configure({ timeout: 180_000 });
const AXE_SCAN_MS = 20_000;

test("the article list shows the seeded article's schedule: Publishes, with its time; unscheduled rows a dash", async ({
  browser,
}) => {
  // axe scans only a page of a context the test made (browser.newContext), not one of browser.newPage.
  const context = await browser.newContext({ baseURL: e2eEnv("E2E_CMS_URL") });
  const page = await signInToAdmin({ newPage: () => context.newPage() } as unknown as Browser, e2eEnv("E2E_CMS_URL"));
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

  // axe on Strapi's list, its findings kept to this project's markup: the column's header and cells
  // (Strapi's own header carries aria-sort on role="gridcell", axe's aria-allowed-attr: not ours).
  extendDeadline(AXE_SCAN_MS);
  const results = await new AxeBuilder({ page })
    .include("main [role='grid']")
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"])
    .analyze();
  const inColumn = (nodes: { target: unknown[] }[]) =>
    page.evaluate(
      (selectors) =>
        selectors.filter((selector) => {
          const element = document.querySelector(selector);
          return Boolean(element?.closest("[data-site-cache-schedule]") || element?.textContent?.trim() === "Schedule");
        }),
      nodes.map((node) => String(node.target[0])),
    );
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  const ours = [];
  for (const violation of serious) {
    for (const target of await inColumn(violation.nodes)) ours.push(`${violation.id} at ${target}: ${violation.help}`);
  }
  expect(ours).toEqual([]);
  // The scan looked at the column: rules passed on its nodes (the badges' and times' contrast, ...).
  expect((await inColumn(results.passes.flatMap((rule) => rule.nodes))).length).toBeGreaterThan(0);
  await context.close();
});
