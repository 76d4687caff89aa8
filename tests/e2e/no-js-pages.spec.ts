import { expect, test, type Page, type Request } from "@playwright/test";

// Issue 31, points 1 and 2 (docs/decisions/0035-no-javascript-on-content-pages.md), in Chromium:
// a content page loads no JavaScript even with JavaScript on, and its controls work (phone menu,
// FAQ); the browser loads a hovered or pressed link ahead (speculation rules), never an auth page;
// the sign-in page still hydrates. The js-off project stands for a browser without speculation
// rules (they are a script element: with scripting off the browser ignores them): plain page loads.

const isPrefetch = (request: Request) => (request.headers()["sec-purpose"] ?? "").includes("prefetch");

/** How the browser got the current page: "navigational-prefetch" when a speculation rule loaded it ahead. */
const deliveryType = (page: Page) =>
  page.evaluate(() => (performance.getEntriesByType("navigation")[0] as { deliveryType?: string }).deliveryType);

test("a content page: no JavaScript requested, and its menu and FAQ work", async ({ page }) => {
  const scripts: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "script" || /\.m?js(\?|$)/.test(request.url())) scripts.push(request.url());
  });
  await page.setViewportSize({ width: 375, height: 800 });
  const response = await page.goto("/company/careers");
  expect(response?.status()).toBe(200);
  // The stylesheet is inline: no <link rel="stylesheet">, and the page is styled (the phone menu is hidden).
  await expect(page.locator('link[rel="stylesheet"]')).toHaveCount(0);
  const menu = page.getByRole("navigation", { name: "Main" });
  await expect(menu).toBeHidden();
  await page.getByText("Menu", { exact: true }).click();
  await expect(menu).toBeVisible();
  await expect(menu.getByRole("link", { name: "Company" })).toBeVisible();

  const faq = page.getByRole("region", { name: "Questions we are often asked" });
  const answer = faq.getByText("About three weeks, from the first call to an offer.");
  await expect(answer).toBeHidden();
  await faq.getByText("How long does hiring take?").click();
  await expect(answer).toBeVisible();

  await menu.getByRole("link", { name: "Company" }).click();
  await expect(page).toHaveURL(/\/company$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Company");
  expect(scripts).toEqual([]);
});

test("a hovered link is loaded ahead (speculation rules) and shown from it; never an auth page", async ({
  page,
}, info) => {
  const ahead: string[] = [];
  page.on("request", (request) => {
    if (isPrefetch(request)) ahead.push(new URL(request.url()).pathname);
  });
  await page.goto("/company");
  const header = page.locator("header");
  // Pressing a link is the strongest signal a visitor gives (moderate eagerness acts on it at
  // once): press "Sign in" and let go elsewhere (no click), then press the logo's link.
  await header.getByRole("link", { name: "Sign in" }).hover();
  await page.mouse.down();
  await page.getByRole("heading", { level: 1 }).hover();
  await page.mouse.up();
  const logo = header.getByRole("link", { name: "Acme" });
  if (info.project.name === "js-on") {
    const prefetched = page.waitForRequest((request) => isPrefetch(request) && new URL(request.url()).pathname === "/");
    await logo.hover();
    await prefetched;
    await logo.click();
    await expect(page).toHaveURL(/\/$/);
    expect(await deliveryType(page)).toBe("navigational-prefetch");
    expect(ahead).toEqual(["/"]);
  } else {
    await logo.click();
    await expect(page).toHaveURL(/\/$/);
    expect(await deliveryType(page)).toBe("");
    expect(ahead).toEqual([]);
  }
  await expect(page.getByRole("region", { name: "Ship with confidence" })).toBeVisible();
});

test("the sign-in page hydrates: a wrong password is answered in place, focus on the password", async ({
  page,
}, info) => {
  const scripts: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "script") scripts.push(request.url());
  });
  await page.goto("/sign-in");
  await expect(page.locator('script[type="module"]')).toHaveCount(1);
  await page.getByLabel("Email", { exact: true }).fill(`nobody-${Date.now()}@example.com`);
  await page.getByLabel("Password", { exact: true }).fill("Wrong-password-1");
  // A mark on the window survives only an answer in place (a full load makes a new window).
  await page.evaluate(() => Object.assign(window, { signInMark: true }));
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByRole("alert")).toBeVisible();
  const hydrated = info.project.name === "js-on";
  expect(await page.evaluate(() => (window as { signInMark?: boolean }).signInMark)).toBe(hydrated || undefined);
  if (hydrated) {
    await expect(page.getByLabel("Password", { exact: true })).toBeFocused();
    expect(scripts.some((url) => /\/assets\/entry\.client-[\w-]+\.js$/.test(url))).toBe(true);
  } else {
    expect(scripts).toEqual([]);
  }
});
