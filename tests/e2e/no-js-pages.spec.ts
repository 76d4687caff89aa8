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

/**
 * The links Chromium itself takes as candidates of the page's speculation rules (DevTools protocol,
 * `Preload` domain: every link a rule matches, before any eagerness applies), as paths with their
 * query and fragment; once the
 * page has loaded and the candidates include `expected`.
 */
async function speculationCandidates(page: Page, path: string, expected: string): Promise<string[]> {
  const cdp = await page.context().newCDPSession(page);
  let latest: string[] = [];
  cdp.on(
    "Preload.preloadingAttemptSourcesUpdated",
    (event: { preloadingAttemptSources: Array<{ key: { url: string } }> }) => {
      latest = event.preloadingAttemptSources.map((source) => {
        const url = new URL(source.key.url);
        return `${url.pathname}${url.search}${url.hash}`;
      });
    },
  );
  await cdp.send("Preload.enable");
  await page.goto(path);
  await expect.poll(() => latest).toContain(expected);
  return [...new Set(latest)].sort();
}

test("a hovered link is loaded ahead and shown from it, never an auth page; without speculation rules, a page load", async ({
  page,
}, info) => {
  const ahead: string[] = [];
  page.on("request", (request) => {
    if (isPrefetch(request)) ahead.push(new URL(request.url()).pathname);
  });
  const logo = page.locator("header").getByRole("link", { name: "Acme" });
  if (info.project.name === "js-on") {
    // What Chromium takes from the rules: the page's site links, none of the excluded ones.
    const candidates = await speculationCandidates(page, "/company", "/");
    expect(candidates).toEqual(
      expect.arrayContaining(["/", "/company/careers", "/de/company", "/imprint", "/positions"]),
    );
    expect(
      candidates.filter((path) => /sign-in|sign-out|account|register|\?|#|^\/api\/|^\/uploads\//.test(path)),
    ).toEqual([]);
    const prefetched = page.waitForRequest((request) => isPrefetch(request) && new URL(request.url()).pathname === "/");
    await logo.hover();
    await prefetched;
    await logo.click();
    await expect(page).toHaveURL(/\/$/);
    expect(await deliveryType(page)).toBe("navigational-prefetch");
    expect(ahead).toEqual(["/"]);
  } else {
    await page.goto("/company");
    await logo.hover();
    await logo.click();
    await expect(page).toHaveURL(/\/$/);
    expect(await deliveryType(page)).toBe("");
    expect(ahead).toEqual([]);
  }
  await expect(page.getByRole("region", { name: "Ship with confidence" })).toBeVisible();
});

test("the sign-in page hydrates: a wrong password is answered in place, focus on the message", async ({
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
    // app/components/auth-form.tsx moves focus to the message (no field is in error).
    await expect(page.getByRole("alert")).toBeFocused();
    expect(scripts.some((url) => /\/assets\/entry\.client-[\w-]+\.js$/.test(url))).toBe(true);
  }
});
