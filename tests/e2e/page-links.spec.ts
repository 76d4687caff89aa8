import { expect, test } from "@playwright/test";

// Links by reference and the navbar's drop-down (issue 32, point 5; docs/links.md), in a real browser
// with JavaScript on and off: the seeded navbar's "More" / "Mehr" holds child links to pages and an
// article by reference, and opens by mouse and by keyboard without a script (<details>/<summary>).
// That a link follows its target when it moves is tested through the real Strapi in
// tests/integration/page-links.test.ts.

test("the drop-down opens by keyboard, and its links lead to the pages they reference", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/");
  const nav = page.getByRole("navigation", { name: "Main" });
  const more = nav.locator("summary", { hasText: "More" });
  const engineering = nav.getByRole("link", { name: "Engineering at Acme" });
  await expect(more).toBeVisible();
  await expect(engineering).toBeHidden();

  // Tab from the last top-level link reaches the summary; Enter opens it; Tab goes into it.
  await nav.getByRole("link", { name: "Jobs" }).focus();
  await page.keyboard.press("Tab");
  await expect(more).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(engineering).toBeVisible();
  await expect(nav.getByRole("link", { name: "Our Berlin office" })).toHaveAttribute("href", "/blog/berlin-office");
  await page.keyboard.press("Tab");
  await expect(engineering).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/company\/careers\/engineering$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Engineering at Acme");
});

test("on a phone the drop-down sits in the menu, and an article's reference leads to it", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto("/company");
  await page.getByText("Menu", { exact: true }).click();
  const nav = page.getByRole("navigation", { name: "Main" });
  await nav.locator("summary", { hasText: "More" }).click();
  await nav.getByRole("link", { name: "Our Berlin office" }).click();
  await expect(page).toHaveURL(/\/blog\/berlin-office$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Acme opens its Berlin office");
});

test("a German page's references lead to the German versions, in the navbar and the sections", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/de");
  const hero = page.getByRole("region", { name: "Mit Zuversicht ausliefern" });
  await expect(hero.getByRole("link", { name: "Über das Unternehmen" })).toHaveAttribute("href", "/de/company");
  const nav = page.getByRole("navigation", { name: "Hauptmenü" });
  await nav.locator("summary", { hasText: "Mehr" }).click();
  await expect(nav.getByRole("link", { name: "Unser Büro in Berlin" })).toHaveAttribute(
    "href",
    "/de/blog/buero-berlin",
  );
  await nav.getByRole("link", { name: "Impressum" }).click();
  await expect(page).toHaveURL(/\/de\/impressum$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Impressum");
});
