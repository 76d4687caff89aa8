import { expect, test } from "@playwright/test";

// Issue 14, points 2 and 6, in a real browser (JavaScript on and off): the seeded image of the
// company page is loaded (through the site's /uploads proxy, within the CSP), and the 404 page
// shows the CMS's Error page in the page's locale.

for (const [path, alt] of [
  ["/company", "The Acme logo: a white A on dark blue"],
  // The placement's alternative text, in the page's language (decision 0040).
  ["/de/company", "Das Acme-Logo: ein weißes A auf Dunkelblau"],
] as const) {
  test(`the image in the body of ${path} is loaded, from the site's own /uploads`, async ({ page, baseURL }) => {
    const blocked: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") blocked.push(message.text());
    });
    const files: Array<{ url: string; status: number; type: string | undefined }> = [];
    page.on("response", (response) => {
      if (new URL(response.url()).pathname.startsWith("/uploads/")) {
        files.push({ url: response.url(), status: response.status(), type: response.headers()["content-type"] });
      }
    });
    await page.goto(path);
    const image = page.locator("article.cms-page figure.cms-image img");
    await expect(image).toHaveCount(1);
    await expect(image).toHaveAttribute("alt", alt);
    await expect(image).toHaveAttribute("src", /^\/uploads\/acme_share_\w+\.png\?v=[0-9a-z]+$/);
    // Decoded, with real pixels: the browser fetched an image it could use.
    await expect
      .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBeGreaterThan(0);
    const chosen = await image.evaluate((img: HTMLImageElement) => img.currentSrc);
    expect(chosen.startsWith(`${baseURL}/uploads/`), chosen).toBe(true);
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      expect(file.status, file.url).toBe(200);
      expect(file.type, file.url).toMatch(/^image\//);
    }
    // Nothing refused by the CSP (the browser's own /favicon.ico 404 is no concern here).
    expect(blocked.filter((line) => /Content Security Policy/i.test(line))).toEqual([]);
  });
}

test("the 404 page shows the CMS's Error page, in the page's locale", async ({ page }) => {
  const english = await page.goto("/no/such/page/here");
  expect(english?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Page not found");
  await expect(page.locator("main")).toContainText(
    "We looked everywhere, but there is no page at this address. Try the menu above.",
  );

  const german = await page.goto("/de/keine/seite");
  expect(german?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Seite nicht gefunden");
  await expect(page).toHaveTitle("Seite nicht gefunden | Acme");
  await expect(page.locator("main")).toContainText("Unter dieser Adresse gibt es keine Seite.");
});
