import { expect, test, type Page } from "@playwright/test";
import { registerInCms, signInInBrowser } from "../support/accounts.ts";
import { e2eEnv } from "../support/e2e-env.ts";
import { StrapiAdmin } from "../support/strapi-admin.ts";

// The seeded demo site (cms/src/seed), read through the real Strapi, in Chromium with
// JavaScript on and off (the two Playwright projects).

async function expectChrome(page: Page, { locale }: { locale: "en" | "de" }) {
  // The chrome's own words are in the page's locale too (app/lib/i18n/messages.ts).
  const main = page.getByRole("navigation", { name: locale === "en" ? "Main" : "Hauptmenü" });
  const footer = page.locator("footer");
  if (locale === "en") {
    await expect(main.getByRole("link")).toHaveText(["Home", "Company", "Careers", "Jobs"]);
    await expect(footer).toContainText("© Acme Inc.");
    await expect(footer.getByRole("link", { name: "Jobs" })).toHaveAttribute("href", "/positions");
  } else {
    await expect(main.getByRole("link")).toHaveText(["Start", "Unternehmen", "Karriere"]);
    await expect(footer).toContainText("© Acme GmbH");
  }
}

test("a visitor sees the home page with its title, description, navbar and footer", async ({ page }) => {
  const response = await page.goto("/");
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Welcome to Acme");
  await expect(page).toHaveTitle("Welcome to Acme | Acme");
  await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", /.+/);
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await expectChrome(page, { locale: "en" });
});

test("/en is the home page too", async ({ page }) => {
  const response = await page.goto("/en");
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Welcome to Acme");
});

test("a page three levels deep renders with its own SEO title and description", async ({ page }) => {
  const response = await page.goto("/company/careers/engineering");
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Engineering at Acme");
  await expect(page).toHaveTitle("Engineering at Acme | Acme");
  const description = await page.locator('meta[name="description"]').getAttribute("content");
  await page.goto("/company/careers");
  await expect(page.locator('meta[name="description"]')).not.toHaveAttribute("content", description ?? "");
  await expectChrome(page, { locale: "en" });
});

test("a default-locale page answers with and without the locale prefix", async ({ page }) => {
  for (const path of ["/careers", "/en/careers"]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(200);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Careers");
  }
});

test("the second locale has its own pages, navbar, footer and lang", async ({ page }) => {
  let response = await page.goto("/de/careers");
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Karriere");
  await expect(page.locator("html")).toHaveAttribute("lang", "de");
  await expectChrome(page, { locale: "de" });

  response = await page.goto("/de");
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Willkommen bei Acme");
});

test("navigating by the navbar reaches the page", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Jobs" }).click();
  await expect(page).toHaveURL(/\/positions$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Open positions");
  await expect(page).toHaveTitle("Open positions | Acme");
});

test("on a phone, the Menu button opens the main navigation, with or without JavaScript", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/");
  const main = page.getByRole("navigation", { name: "Main" });
  await expect(main).toBeHidden();
  // A checkbox and its label (app/components/site-chrome.tsx): no script needed to open it.
  await page.getByText("Menu", { exact: true }).click();
  await main.getByRole("link", { name: "Jobs" }).click();
  await expect(page).toHaveURL(/\/positions$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Open positions");
  // The next page starts with the menu closed (a page load: content pages do not hydrate).
  await expect(main).toBeHidden();
});

test("a permanent CMS redirect answers 308 and lands on its target", async ({ page, request }) => {
  const response = await request.get("/old-careers", { maxRedirects: 0 });
  expect(response.status()).toBe(308);
  expect(response.headers().location).toBe("/company/careers");

  await page.goto("/old-careers");
  await expect(page).toHaveURL(/\/company\/careers$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Careers at Acme");
});

test("a temporary CMS redirect answers 307 and lands on its target", async ({ page, request }) => {
  for (const path of ["/jobs-board", "/en/jobs-board"]) {
    const response = await request.get(path, { maxRedirects: 0 });
    expect(response.status(), path).toBe(307);
    expect(response.headers().location).toBe("/positions");
  }
  await page.goto("/jobs-board");
  await expect(page).toHaveURL(/\/positions$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Open positions");
});

test("an unknown path gets a real 404 page inside the site's layout", async ({ page }) => {
  const response = await page.goto("/no/such/page");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Page not found");
  await expect(page).toHaveTitle("Page not found | Acme");
  await expectChrome(page, { locale: "en" });
});

test("a trailing slash redirects to the page's one URL", async ({ request }) => {
  const response = await request.get("/company/", { maxRedirects: 0 });
  expect(response.status()).toBe(308);
  expect(response.headers().location).toBe("/company");
});

test("hashed assets are cached for a year, and security headers are set", async ({ request, page }) => {
  const response = await request.get("/");
  expect(response.headers()["x-content-type-options"]).toBe("nosniff");
  expect(response.headers()["content-security-policy"]).toContain("default-src 'self'");
  expect(response.headers()["x-powered-by"]).toBeUndefined();

  // A page that links the stylesheet (content pages carry it inline: decision 0035).
  await page.goto("/sign-in");
  const stylesheet = await page.locator('link[rel="stylesheet"]').first().getAttribute("href");
  expect(stylesheet).toMatch(/^\/assets\//);
  const asset = await request.get(stylesheet ?? "");
  expect(asset.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
});

test("a signed-in visitor gets cached pages that show they are signed in, and can sign out from any page", async ({
  page,
}, info) => {
  const email = `cached-${info.project.name}-${Date.now()}@example.com`;
  await registerInCms(email, "Correct-horse-1");
  await signInInBrowser(page, email, "Correct-horse-1");
  await expect(page).toHaveURL(/\/account$/);

  // Twice: the second answer is the shared signed-in variant from the cache.
  await page.goto("/company");
  const response = await page.goto("/company");
  expect(response?.headers()["x-cache"]).toBe("HIT");
  const header = page.locator("header");
  await expect(header.getByRole("button", { name: "Sign out" })).toBeVisible();
  // The shared page says "Account", JavaScript on or off: content pages do not hydrate, so nothing
  // reads the session in the browser there (docs/decisions/0035-no-javascript-on-content-pages.md).
  await expect(header.getByTestId("signed-in-as")).toHaveText("Account");
  expect(await response?.text()).not.toContain(email);

  await header.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.locator("header").getByRole("link", { name: "Sign in" })).toBeVisible();
});

test("a page's head has its canonical URL, Open Graph and Twitter tags, and hreflang alternates for both locales", async ({
  page,
  request,
  baseURL,
}) => {
  for (const [path, locale, canonical] of [
    ["/company", "en", "/company"],
    ["/en/company", "en", "/company"],
    ["/de/company", "de", "/de/company"],
  ] as const) {
    await page.goto(path);
    const head = page.locator("head");
    await expect(head.locator('link[rel="canonical"]'), path).toHaveAttribute("href", `${baseURL}${canonical}`);
    await expect(head.locator('link[rel="alternate"][hreflang="en"]'), path).toHaveAttribute(
      "href",
      `${baseURL}/company`,
    );
    await expect(head.locator('link[rel="alternate"][hreflang="de"]'), path).toHaveAttribute(
      "href",
      `${baseURL}/de/company`,
    );
    await expect(head.locator('link[rel="alternate"][hreflang="x-default"]'), path).toHaveAttribute(
      "href",
      `${baseURL}/company`,
    );
    await expect(head.locator('meta[property="og:url"]'), path).toHaveAttribute("content", `${baseURL}${canonical}`);
    await expect(head.locator('meta[property="og:locale"]'), path).toHaveAttribute("content", locale);
    await expect(head.locator('meta[property="og:type"]'), path).toHaveAttribute("content", "website");
  }
  await page.goto("/company");
  const head = page.locator("head");
  await expect(head.locator('meta[property="og:title"]')).toHaveAttribute("content", "Company | Acme");
  await expect(head.locator('meta[property="og:description"]')).toHaveAttribute("content", /.+/);
  await expect(head.locator('meta[name="twitter:card"]')).toHaveAttribute("content", "summary_large_image");
  // The seeded share image, absolute on the site (its /uploads proxy), and there.
  const image = await head.locator('meta[property="og:image"]').getAttribute("content");
  expect(image).toMatch(new RegExp(`^${baseURL}/uploads/acme_share_\\w+\\.png$`));
  await expect(head.locator('meta[name="twitter:image"]')).toHaveAttribute("content", image ?? "");
  const served = await request.get(image ?? "");
  expect(served.status()).toBe(200);
  expect(served.headers()["content-type"]).toBe("image/png");
});

test("the home page has its head too; a page in one locale only has no hreflang alternates", async ({
  page,
  baseURL,
}) => {
  await page.goto("/");
  await expect(page.locator('head link[rel="canonical"]')).toHaveAttribute("href", `${baseURL}/`);
  await expect(page.locator('head link[rel="alternate"][hreflang="de"]')).toHaveAttribute("href", `${baseURL}/de`);

  await page.goto("/company/careers/engineering");
  await expect(page.locator('head link[rel="canonical"]')).toHaveAttribute(
    "href",
    `${baseURL}/company/careers/engineering`,
  );
  await expect(page.locator('head link[rel="alternate"]')).toHaveCount(0);
  await expect(page.locator('head meta[property="og:locale:alternate"]')).toHaveCount(0);
});

test("following a link moves the head along to the new page", async ({ page, baseURL }) => {
  await page.goto("/");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Jobs" }).click();
  await expect(page).toHaveURL(/\/positions$/);
  await expect(page.locator('head link[rel="canonical"]')).toHaveAttribute("href", `${baseURL}/positions`);
  await expect(page.locator('head meta[property="og:title"]')).toHaveAttribute("content", "Open positions | Acme");
  await expect(page.locator('head link[rel="alternate"]')).toHaveCount(0);
});

test("/sitemap.xml lists the seeded pages in both locales; /robots.txt names it", async ({ request, baseURL }) => {
  // Earlier specs' publishes and deletes reach the site as the CMS's revalidations, some after
  // their test ended: the sitemap is checked once the last of them has landed.
  await (await StrapiAdmin.login(e2eEnv("E2E_CMS_URL"))).revalidationsSettled();
  const sitemap = await request.get("/sitemap.xml");
  expect(sitemap.status()).toBe(200);
  expect(sitemap.headers()["content-type"]).toBe("application/xml; charset=utf-8");
  const xml = await sitemap.text();
  expect(xml).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
  const entries = new Map(
    [...xml.matchAll(/<url><loc>([^<]*)<\/loc><lastmod>([^<]*)<\/lastmod><\/url>/g)].map((match) => [
      match[1]!,
      match[2]!,
    ]),
  );
  const seeded = [
    "/",
    "/company",
    "/company/careers",
    "/company/careers/engineering",
    "/careers",
    "/positions",
    "/positions/frontend-engineer",
    "/positions/backend-engineer",
    "/positions/product-designer",
    "/de",
    "/de/company",
    "/de/company/careers",
    "/de/careers",
  ];
  for (const path of seeded) {
    expect(entries.get(`${baseURL}${path}`), path).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
  }
  // Every URL once, each one canonical: no /en/ twin of a default-locale page.
  expect(xml.match(/<loc>/g)?.length).toBe(entries.size);
  expect([...entries.keys()].filter((url) => url.startsWith(`${baseURL}/en/`) || url === `${baseURL}/en`)).toEqual([]);
  // Cached: a HIT, once the render that answer started (a MISS, or a STALE one: another spec's
  // revalidation marked it stale) has been stored. That render is the event waited for.
  await expect.poll(async () => (await request.get("/sitemap.xml")).headers()["x-cache"]).toBe("HIT");

  const robots = await request.get("/robots.txt");
  expect(robots.status()).toBe(200);
  expect(await robots.text()).toContain(`Sitemap: ${baseURL}/sitemap.xml`);
});
