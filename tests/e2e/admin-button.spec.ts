import { expect, test, type APIRequestContext, type Locator } from "@playwright/test";

import { StrapiAdmin } from "../support/strapi-admin.ts";
import { adminPageForThisFile } from "../support/strapi-admin-ui.ts";
import { e2eEnv } from "../support/e2e-env.ts";

// The site-cache controls of the real Strapi admin UI (packages/strapi-plugin-site-cache/admin/): the "Revalidate cache" and
// "Purge CDN" document actions (only there with ?showRevalidateCache=true; a click really
// revalidates the site, or purges the real Varnish in front of it), and the "Site cache" page.
// js-on only (playwright.config.ts): the admin UI needs JavaScript.
const cmsUrl = () => e2eEnv("E2E_CMS_URL");
// Strapi's own query parameter for the edit view's locale, kept next to ours.
const EN = "plugins[i18n][locale]=en";
const SHOW = "showRevalidateCache=true";

// One admin page, signed in once, for the whole file.
const adminPage = adminPageForThisFile(cmsUrl);
// An edit view of the admin UI (a large single-page app) may take this long to show its panel on
// a busy 2-core machine: every test opens one, so its budget is this plus the default's.
const EDIT_VIEW_MS = 60_000;
test.describe.configure({ timeout: EDIT_VIEW_MS + 30_000 });

const pageEditView = (documentId: string, query: string) =>
  `/admin/content-manager/collection-types/api::page.page/${documentId}?${query}`;
const navbarEditView = (query: string) => `/admin/content-manager/single-types/api::navbar.navbar?${query}`;

/**
 * Opens an edit view and waits until its document actions are rendered. Strapi shows the first
 * two panel actions as buttons (Publish and Save for a page; Save and Revalidate cache for the
 * navbar, which has no drafts) and the rest in the "More document actions" menu, opened here
 * when the action is not a button and there is a menu. Returns the action `name` ("Revalidate
 * cache" or "Purge CDN") wherever it is.
 */
async function openEditView(url: string, fullPath?: string, name = "Revalidate cache"): Promise<Locator> {
  await adminPage().goto(url);
  const main = adminPage().getByRole("main");
  await expect(main.getByRole("button", { name: "Save" })).toBeVisible({ timeout: EDIT_VIEW_MS });
  // The right page (its title may have been edited by another spec).
  if (fullPath) await expect(main.getByRole("textbox", { name: "fullPath" })).toHaveValue(fullPath);
  const button = main.getByRole("button", { name });
  if (await button.isVisible()) return button;
  // Not a panel button: in the menu, if there is one (an open menu hides the panel from the
  // accessibility tree, so the menu is only opened now).
  const more = main.getByRole("button", { name: "More document actions" });
  if (await more.isVisible()) {
    await more.click();
    await expect(adminPage().getByRole("menu").getByRole("menuitem").first()).toBeVisible();
  }
  return adminPage().getByRole("menu").getByRole("menuitem", { name });
}

/** A success notification (Strapi's Alert: role "status"; a failure would be an "alert"). */
function successNotification(text: string): Locator {
  return adminPage().getByRole("status").filter({ hasText: text });
}

/** Waits until path is a settled cache HIT on the site (earlier tests may have left it stale). */
async function settledHit(request: APIRequestContext, path: string) {
  await expect.poll(async () => (await request.get(path)).headers()["x-cache"], { timeout: 10_000 }).toBe("HIT");
}

test("page edit view with ?showRevalidateCache=true: the action revalidates the page on the site", async ({
  request,
}) => {
  const documentId = await (await StrapiAdmin.login(cmsUrl())).pageDocumentId("/company", "en");
  await settledHit(request, "/company");

  const action = await openEditView(pageEditView(documentId, `${EN}&${SHOW}`), "/company");
  const answer = action.page().waitForResponse((response) => response.url().includes("/site-cache/revalidate"));
  await action.click();
  await expect(successNotification("Cache revalidated: /company")).toBeVisible();
  // Behind a CDN the site renders the page again before it answers (decision 0028): it says so,
  // and the next request is that render, a HIT.
  const { data } = (await (await answer).json()) as { data: { response: { rendered?: number } } };
  expect(data.response.rendered).toBeGreaterThanOrEqual(1);
  expect((await request.get("/company")).headers()["x-cache"]).toBe("HIT");
});

test("navbar edit view with ?showRevalidateCache=true: the action revalidates every page", async ({ request }) => {
  await settledHit(request, "/positions");

  const action = await openEditView(navbarEditView(`${EN}&${SHOW}`));
  await action.click();
  await expect(successNotification("Cache revalidated: cms:api::navbar.navbar")).toBeVisible();
  expect((await request.get("/positions")).headers()["x-cache"]).toBe("STALE");
  await settledHit(request, "/positions");
});

// The buttons come from the content types' declarations (GET /site-cache/content-types), not from a
// list of types in the admin code: an article gets its declared path, "/blog/{slug}", filled in.
test("article edit view with ?showRevalidateCache=true: the action revalidates the article's declared path", async () => {
  // A draft of its own (deleted after), so no other spec's article or page changes.
  const admin = await StrapiAdmin.login(cmsUrl());
  const slug = `declared-${test.info().project.name}-${Date.now().toString(36)}`;
  const articles = "/content-manager/collection-types/api::article.article";
  const created = (await admin.call("POST", `${articles}?locale=en`, {
    title: "Declared path",
    slug,
    excerpt: "Its button comes from its schema.",
  })) as { data: { documentId: string } };
  try {
    const action = await openEditView(`/admin${articles}/${created.data.documentId}?${EN}&${SHOW}`);
    await action.click();
    await expect(successNotification(`Cache revalidated: /blog/${slug}`)).toBeVisible();
  } finally {
    await admin.call("DELETE", `${articles}/${created.data.documentId}?locale=en`);
  }
});

test("without the parameter there is no Revalidate cache and no Purge CDN action", async () => {
  test.setTimeout(4 * EDIT_VIEW_MS + 30_000); // four edit views
  const documentId = await (await StrapiAdmin.login(cmsUrl())).pageDocumentId("/company", "en");
  for (const [url, fullPath] of [
    [pageEditView(documentId, EN), "/company"],
    [navbarEditView(EN), undefined],
  ] as const) {
    for (const name of ["Revalidate cache", "Purge CDN"]) {
      // The panel (and the menu, when there is one) shows Strapi's own actions, just not ours.
      const action = await openEditView(url, fullPath, name);
      await expect(action).toHaveCount(0);
      await adminPage().keyboard.press("Escape");
    }
  }
});

/** The page through the CDN (the real Varnish of the e2e set-up): its X-CDN-Cache, HIT or MISS. */
async function viaCdn(request: APIRequestContext, path: string) {
  return (await request.get(`${e2eEnv("E2E_CDN_URL")}${path}`)).headers()["x-cdn-cache"];
}

/** Asks for path through the CDN until the CDN has it (a HIT). */
async function cachedInCdn(request: APIRequestContext, path: string) {
  await expect.poll(() => viaCdn(request, path), { timeout: 10_000 }).toBe("HIT");
}

test("page edit view with ?showRevalidateCache=true: Purge CDN drops the page's copies from the CDN", async ({
  request,
}) => {
  const documentId = await (await StrapiAdmin.login(cmsUrl())).pageDocumentId("/company", "en");
  await cachedInCdn(request, "/company");

  const action = await openEditView(pageEditView(documentId, `${EN}&${SHOW}`), "/company", "Purge CDN");
  await action.click();
  await expect(successNotification(`CDN purged: cms:api::page.page:${documentId}`)).toBeVisible();
  expect(await viaCdn(request, "/company")).toBe("MISS");
});

test("the Site cache page in the main menu: no failures listed, and Purge the whole CDN empties the CDN", async ({
  request,
}) => {
  await cachedInCdn(request, "/positions");
  await adminPage().goto("/admin");
  await adminPage().getByRole("link", { name: "Site cache" }).click();
  const main = adminPage().getByRole("main");
  await expect(main.getByRole("heading", { name: "Revalidation failures (0)" })).toBeVisible({ timeout: 20_000 });
  await expect(main.getByText("No revalidation failures")).toBeVisible();

  await main.getByRole("button", { name: "Purge the whole CDN" }).click();
  await expect(successNotification("CDN purged: everything")).toBeVisible();
  expect(await viaCdn(request, "/positions")).toBe("MISS");
});
