import { expect, test } from "@playwright/test";

// Issue 23, point 2, in a real browser (JavaScript on and off): the seeded blog. From the home
// page's latest-articles section to an article, its previous/next links and its category, the
// German blog; every step a page load, JavaScript on or off (content pages do not hydrate:
// docs/decisions/0035-no-javascript-on-content-pages.md), without errors.

test("from the home page's latest articles to an article, its neighbours and its category", async ({ page }) => {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  await page.goto("/");
  // A mark on the window would survive a client-side navigation only (a page load makes a new window).
  await page.evaluate(() => Object.assign(window, { blogMark: true }));
  const latest = page.getByRole("region", { name: "From the blog" });
  await expect(latest.getByRole("listitem")).toHaveCount(3);
  await latest.getByRole("link", { name: "How we ship twice a day" }).click();
  await expect(page).toHaveURL(/\/blog\/shipping-twice-a-day$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("How we ship twice a day");
  await expect(page.getByText("Ada Brenner")).toBeVisible();
  expect(await page.evaluate(() => (window as { blogMark?: boolean }).blogMark)).toBeUndefined();

  await page.getByRole("link", { name: "Next article: Caching pages & keeping them fresh" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Caching pages & keeping them fresh");
  await page.getByRole("link", { name: "Previous article: How we ship twice a day" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("How we ship twice a day");
  await page.getByRole("link", { name: "Engineering" }).click();
  await expect(page).toHaveURL(/\/blog\/category\/engineering$/);
  await expect(page.getByRole("heading", { level: 2 })).toHaveText([
    "Caching pages & keeping them fresh",
    "How we ship twice a day",
  ]);
  expect(errors).toEqual([]);
});

test("the German blog: its own articles, words and links", async ({ page }) => {
  await page.goto("/de/blog");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Blog");
  await page.getByRole("link", { name: "Acme 3.0 ist da" }).click();
  await expect(page).toHaveURL(/\/de\/blog\/acme-3$/);
  await expect(page.getByText("Von")).toBeVisible();
  await expect(page.getByRole("link", { name: "Neuigkeiten" })).toHaveAttribute(
    "href",
    "/de/blog/category/neuigkeiten",
  );
});
