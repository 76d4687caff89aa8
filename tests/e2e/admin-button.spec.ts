import { expect, test, type APIRequestContext, type Locator, type Page } from "@playwright/test";

import { StrapiAdmin } from "../support/strapi-admin.ts";

// The "Revalidate cache" document action (cms/src/admin/app.js) clicked in the real Strapi admin
// UI: only there with ?showRevalidateCache=true, and a click really revalidates the site.
// js-on only (playwright.config.ts): the admin UI needs JavaScript.
const cmsUrl = () => process.env.E2E_CMS_URL ?? "";
const ADMIN_EMAIL = "admin@example.com";
const ADMIN_PASSWORD = "Admin12345";
// Strapi's own query parameter for the edit view's locale, kept next to ours.
const EN = "plugins[i18n][locale]=en";
const SHOW = "showRevalidateCache=true";

// One browser login for the whole file: Strapi rate-limits admin logins per IP.
test.describe.configure({ mode: "serial" });

let admin: Page;

test.beforeAll(async ({ browser }) => {
  admin = await browser.newPage({ baseURL: cmsUrl() });
  // A development build of the admin (what `npm run build` makes without NODE_ENV=production)
  // pops up Strapi's guided tour over the content manager, and clicking its Skip button crashed
  // the page once here ("Maximum update depth exceeded"): switch the tours off in their stored
  // state, as "Skip all tours" does, before every page load.
  await admin.addInitScript(() => {
    const key = "STRAPI_GUIDED_TOUR";
    try {
      const state = JSON.parse(window.localStorage.getItem(key) ?? "null");
      if (state && state.enabled !== false)
        window.localStorage.setItem(key, JSON.stringify({ ...state, enabled: false }));
    } catch {
      // no stored state yet: the next load has it
    }
  });
  await admin.goto("/admin/auth/login");
  await admin.getByRole("textbox", { name: "Email" }).fill(ADMIN_EMAIL);
  await admin.getByRole("textbox", { name: "Password" }).fill(ADMIN_PASSWORD);
  await admin.getByRole("button", { name: "Login" }).click();
  await expect(admin).not.toHaveURL(/\/auth\/login/, { timeout: 20_000 });
});

test.afterAll(async () => {
  await admin?.close();
});

const pageEditView = (documentId: string, query: string) =>
  `/admin/content-manager/collection-types/api::page.page/${documentId}?${query}`;
const navbarEditView = (query: string) => `/admin/content-manager/single-types/api::navbar.navbar?${query}`;

/**
 * Opens an edit view and waits until its document actions are rendered. Strapi shows the first
 * two panel actions as buttons (Publish and Save for a page; Save and ours for the navbar, which
 * has no drafts) and the rest in the "More document actions" menu, opened here when there is
 * one. Returns the "Revalidate cache" action wherever it is.
 */
async function openEditView(url: string, fullPath?: string): Promise<Locator> {
  await admin.goto(url);
  const main = admin.getByRole("main");
  await expect(main.getByRole("button", { name: "Save" })).toBeVisible({ timeout: 20_000 });
  // The right page (its title may have been edited by another spec).
  if (fullPath) await expect(main.getByRole("textbox", { name: "fullPath" })).toHaveValue(fullPath);
  const more = main.getByRole("button", { name: "More document actions" });
  if (await more.isVisible()) {
    await more.click();
    await expect(admin.getByRole("menu").getByRole("menuitem").first()).toBeVisible();
  }
  return main
    .getByRole("button", { name: "Revalidate cache" })
    .or(admin.getByRole("menu").getByRole("menuitem", { name: "Revalidate cache" }));
}

/** A success notification (Strapi's Alert: role "status"; a failure would be an "alert"). */
function successNotification(text: string): Locator {
  return admin.getByRole("status").filter({ hasText: text });
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
  await action.click();
  await expect(successNotification("Cache revalidated: /company")).toBeVisible();
  expect((await request.get("/company")).headers()["x-cache"]).toBe("STALE");
  await settledHit(request, "/company");
});

test("navbar edit view with ?showRevalidateCache=true: the action revalidates every page", async ({ request }) => {
  await settledHit(request, "/jobs");

  const action = await openEditView(navbarEditView(`${EN}&${SHOW}`));
  await action.click();
  await expect(successNotification("Cache revalidated: cms:api::navbar.navbar")).toBeVisible();
  expect((await request.get("/jobs")).headers()["x-cache"]).toBe("STALE");
  await settledHit(request, "/jobs");
});

test("without the parameter there is no Revalidate cache action", async () => {
  const documentId = await (await StrapiAdmin.login(cmsUrl())).pageDocumentId("/company", "en");
  for (const [url, fullPath] of [
    [pageEditView(documentId, EN), "/company"],
    [navbarEditView(EN), undefined],
  ] as const) {
    // The panel (and the menu, when there is one) shows Strapi's own actions, just not ours.
    const action = await openEditView(url, fullPath);
    await expect(action).toHaveCount(0);
    await admin.keyboard.press("Escape");
  }
});
