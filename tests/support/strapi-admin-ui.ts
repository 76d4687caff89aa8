import { expect, test, type Browser, type Page } from "@playwright/test";

/**
 * A browser page signed in to the real Strapi admin UI at `cmsUrl` (its baseURL), for the
 * admin-*.spec.ts end-to-end tests. Open one per spec file: Strapi rate-limits admin logins per IP.
 */
export async function signInToAdmin(
  browser: Browser,
  cmsUrl: string,
  email = process.env.CMS_ADMIN_EMAIL ?? "admin@example.com",
  password = process.env.CMS_ADMIN_PASSWORD ?? "Admin12345",
): Promise<Page> {
  const admin = await browser.newPage({ baseURL: cmsUrl });
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
  await admin.getByRole("textbox", { name: "Email" }).fill(email);
  await admin.getByRole("textbox", { name: "Password" }).fill(password);
  await admin.getByRole("button", { name: "Login" }).click();
  await expect(admin).not.toHaveURL(/\/auth\/login/, { timeout: 20_000 });
  return admin;
}

/**
 * For an admin-*.spec.ts file: its tests run in order (serial) on one admin page, signed in once
 * before them (Strapi rate-limits admin logins per IP) and closed after them. Returns that page.
 */
export function adminPageForThisFile(cmsUrl: () => string): () => Page {
  test.describe.configure({ mode: "serial" });
  let admin: Page | undefined;
  test.beforeAll(async ({ browser }) => {
    admin = await signInToAdmin(browser, cmsUrl());
  });
  test.afterAll(async () => {
    await admin?.close();
  });
  return () => {
    if (!admin) throw new Error("the admin page is opened in beforeAll");
    return admin;
  };
}
