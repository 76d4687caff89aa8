import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { expect, test, type Locator, type Page } from "@playwright/test";
import getPort from "../support/free-port.ts";

import { startCms, type CmsHandle } from "../support/cms-server.ts";
import { e2eEnv } from "../support/e2e-env.ts";
import { StrapiAdmin } from "../support/strapi-admin.ts";
import { signInToAdmin } from "../support/strapi-admin-ui.ts";

// Issue 30, point 8, in the real admin UI: what an editor sees is what the CMS does. The page's
// fullPath is read-only with a hint (the CMS derives it), the parent picker lists pages by path
// without the page itself and the pages below it, and the CDN purge buttons are there only when
// the CMS has a CDN purge set up (this run's CMS has one; a second CMS started here has none).
// js-on only (playwright.config.ts): the admin UI needs JavaScript.
const cmsUrl = () => e2eEnv("E2E_CMS_URL");
// Each admin page load (the sign-in too) took over 30 s with this 2-core machine's load average at
// 30: every test and hook of the file gets up to three minutes. One admin page, signed in once for
// the file (Strapi rate-limits admin logins per IP), as adminPageForThisFile does, with that time.
test.describe.configure({ mode: "serial", timeout: 180_000 });
let runAdmin: Page | undefined;
test.beforeAll(async ({ browser }) => {
  test.setTimeout(180_000);
  runAdmin = await signInToAdmin(browser, cmsUrl());
});
test.afterAll(async () => {
  await runAdmin?.close();
});
const adminPage = () => runAdmin!;
const EN = "plugins[i18n][locale]=en";

const pageEditView = (documentId: string, query = EN) =>
  `/admin/content-manager/collection-types/api::page.page/${documentId}?${query}`;

/** Opens an edit view and waits for its form (the Save button). */
async function openEditView(page: Page, url: string): Promise<Locator> {
  await page.goto(url);
  const main = page.getByRole("main");
  // A full admin page load: over a minute on this 2-core machine when it is busy (load 30 seen).
  await expect(main.getByRole("button", { name: "Save" })).toBeVisible({ timeout: 120_000 });
  return main;
}

test("a page's edit view: fullPath read-only with a hint; the parent picker by path, without the page or pages below it", async () => {
  const documentId = await (await StrapiAdmin.login(cmsUrl())).pageDocumentId("/company", "en");
  const main = await openEditView(adminPage(), pageEditView(documentId));
  const fullPath = main.getByRole("textbox", { name: "fullPath" });
  await expect(fullPath).toHaveValue("/company");
  await expect(fullPath).not.toBeEditable();
  await expect(main.getByText("Set by the CMS from the parent's path and the slug")).toBeVisible();

  await main.getByRole("combobox", { name: "parent" }).click();
  const listbox = adminPage().getByRole("listbox");
  // Each option is named by the candidate's path, then its status ("/positions published").
  await expect(listbox.getByRole("option", { name: "/positions published", exact: true })).toBeVisible({
    timeout: 20_000,
  });
  // Every option but Strapi's own "Create a relation": a candidate, shown as its path and status.
  const options = [...(await listbox.ariaSnapshot()).matchAll(/- option "([^"]*)"/g)]
    .map((match) => match[1]!)
    .filter((name) => name !== "Create a relation");
  expect(options.length).toBeGreaterThan(1);
  // Paths (the pages' fullPath), not titles.
  for (const name of options) expect(name).toMatch(/^\/\S* (published|draft|modified)$/);
  const shown = options.map((name) => name.split(" ")[0]!);
  // Not the page, not the pages below it (/company/careers and its child in the seed).
  expect(shown.filter((text) => text === "/company" || text.startsWith("/company/"))).toEqual([]);
  await adminPage().keyboard.press("Escape");
});

test("with a CDN purge set up (this run's CMS), the Site cache page offers Purge the whole CDN", async () => {
  await adminPage().goto("/admin/plugins/site-cache");
  const main = adminPage().getByRole("main");
  await expect(main.getByRole("heading", { name: /^Revalidation failures/ })).toBeVisible({ timeout: 20_000 });
  await expect(main.getByRole("button", { name: "Purge the whole CDN" })).toBeVisible();
});

test.describe("a CMS without a CDN purge", () => {
  let dir: string;
  let cms: CmsHandle | undefined;
  let page: Page | undefined;

  test.beforeAll(async ({ browser }) => {
    // A CMS start (up to 180 s: cms-server.ts) and an admin sign-in.
    test.setTimeout(300_000);
    dir = mkdtempSync(path.join(tmpdir(), "admin-page-truth-"));
    cms = await startCms({
      port: await getPort(),
      dbFile: path.join(dir, "cms.db"),
      fresh: true,
      serveAdmin: true,
      // No CMS_CDN_PURGE_SECRET; no site either (nothing here is published).
      env: { CLIENT_URL: "http://127.0.0.1:9" },
    });
    page = await signInToAdmin(browser, cms.url);
  });
  test.afterAll(async () => {
    await page?.close();
    await cms?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test("no Purge the whole CDN on the Site cache page, no Purge CDN in the page edit view", async () => {
    test.setTimeout(240_000);
    await page!.goto("/admin/plugins/site-cache");
    const main = page!.getByRole("main");
    await expect(main.getByRole("heading", { name: /^Revalidation failures/ })).toBeVisible({ timeout: 120_000 });
    await expect(main.getByRole("button", { name: "Retry now" })).toBeVisible();
    await expect(main.getByRole("button", { name: "Purge the whole CDN" })).toHaveCount(0);

    const documentId = await (await StrapiAdmin.login(cms!.url)).pageDocumentId("/company", "en");
    const edit = await openEditView(page!, pageEditView(documentId, `${EN}&showRevalidateCache=true`));
    // A page's panel shows Publish and Save; the plugin's actions are in the menu: Revalidate cache
    // is, Purge CDN not (shown disabled while the CMS is asked, then gone).
    await edit.getByRole("button", { name: "More document actions" }).click();
    const menu = page!.getByRole("menu");
    await expect(menu.getByRole("menuitem", { name: "Revalidate cache" })).toBeVisible();
    await expect(menu.getByRole("menuitem", { name: "Purge CDN" })).toHaveCount(0);
    await page!.keyboard.press("Escape");
  });
});
