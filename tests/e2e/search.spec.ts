import { expect, test } from "@playwright/test";

// Issue 32, point 2, in a real browser, JavaScript on and off (docs/search.md): the header's search
// field is a plain GET form, so it submits the same way in both; the results page marks the
// matched words and links to what it found; an empty query gets the page's prompt.

test("the header's field finds the seeded article, marked, and leads to it", async ({ page }) => {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  await page.goto("/blog");
  const search = page.getByRole("search");
  await search.getByRole("searchbox", { name: "Search the site" }).fill("berlin office");
  await search.getByRole("button", { name: "Search" }).click();

  await expect(page).toHaveURL(/\/search\?q=berlin\+office$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Search");
  await expect(page.getByRole("status")).toContainText("for “berlin office”");
  const result = page.getByRole("link", { name: "Acme opens its Berlin office" });
  await expect(result.locator("mark")).toHaveText(["Berlin", "office"]);
  // The page's own field holds the query, for a second try.
  await expect(page.getByRole("main").getByRole("searchbox")).toHaveValue("berlin office");
  await result.click();
  await expect(page).toHaveURL(/\/blog\/berlin-office$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Acme opens its Berlin office");
  expect(errors).toEqual([]);
});

test("in German: the header's field searches the German site", async ({ page }) => {
  await page.goto("/de");
  const search = page.getByRole("banner").getByRole("search");
  await search.getByRole("searchbox", { name: "Website durchsuchen" }).fill("Kaffeemaschine");
  await search.getByRole("button", { name: "Suchen" }).click();
  await expect(page).toHaveURL(/\/de\/search\?q=Kaffeemaschine$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Suche");
  await expect(page.getByRole("status")).toHaveText("1 Ergebnis für „Kaffeemaschine“");
  await page.getByRole("link", { name: "Acme eröffnet ein Büro in Berlin" }).click();
  await expect(page).toHaveURL(/\/de\/blog\/buero-berlin$/);
});

test("an empty search gets the prompt; a search with no match says so", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("banner").getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/\/search\?q=$/);
  await expect(page.getByText("Type one or more words to search the pages and articles of this site.")).toBeVisible();
  const field = page.getByRole("main").getByRole("searchbox", { name: "Search the site" });
  await field.fill("zzzzqx");
  await field.press("Enter");
  await expect(page.getByRole("status")).toHaveText("Nothing matches “zzzzqx”. Try other or fewer words.");
});
