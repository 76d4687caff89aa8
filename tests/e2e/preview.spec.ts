import { expect, test } from "@playwright/test";

import { StrapiAdmin } from "../support/strapi-admin.ts";
import { e2eEnv } from "../support/e2e-env.ts";
import { previewLink } from "../support/preview-link.ts";

// Draft preview in a browser (docs/cms-contract.md, "Preview"), JavaScript on and off: the URL
// the CMS's Preview makes sets the preview cookie and leads to the page, which shows the draft
// under a "Preview: draft" bar; its exit link ends the preview and shows the published page.
const cmsUrl = () => e2eEnv("E2E_CMS_URL");
const previewUrl = (path: string) => previewLink(e2eEnv("E2E_PREVIEW_SECRET"), { path, locale: "en", status: "draft" });

test("preview shows the draft under a bar; its exit link returns to the published page", async ({
  page,
  context,
  browser,
}, testInfo) => {
  const slug = `e2e-preview-${testInfo.project.name}-${Date.now().toString(36)}`;
  await (await StrapiAdmin.login(cmsUrl())).pageWithDraft(slug, "Published heading", "Draft heading");

  await page.goto(previewUrl(`/${slug}`));
  await expect(page).toHaveURL(new RegExp(`/${slug}$`));
  const bar = page.getByRole("complementary", { name: "Preview" });
  await expect(bar).toContainText("Preview: draft");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Draft heading");
  const [cookie] = (await context.cookies()).filter((c) => c.name === "site_preview");
  expect(cookie?.httpOnly).toBe(true);

  // Somebody else, at the same time: the published page, no bar.
  const other = await browser.newPage();
  await other.goto(`/${slug}`);
  await expect(other.getByRole("heading", { level: 1 })).toHaveText("Published heading");
  await expect(other.getByText("Preview: draft")).toHaveCount(0);
  await other.close();

  await bar.getByRole("link", { name: "Exit preview" }).click();
  await expect(page).toHaveURL(new RegExp(`/${slug}$`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Published heading");
  await expect(page.getByText("Preview: draft")).toHaveCount(0);
  expect((await context.cookies()).filter((c) => c.name === "site_preview")).toEqual([]);
});

// Live preview (docs/live-preview.md): with JavaScript the bar says the page follows the CMS's
// saves (it listens once hydrated); without, it does not say so, and a reload shows a newer draft.
test("a newer draft shows on reload; only a hydrated preview says it updates on save", async ({ page }, testInfo) => {
  const slug = `e2e-preview-reload-${testInfo.project.name}-${Date.now().toString(36)}`;
  const cms = await StrapiAdmin.login(cmsUrl());
  const documentId = await cms.pageWithDraft(slug, "Published heading", "First draft");

  await page.goto(previewUrl(`/${slug}`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("First draft");
  const bar = page.getByRole("complementary", { name: "Preview" });
  if (testInfo.project.name === "js-on") await expect(bar).toContainText("It updates when you save in the CMS.");
  else await expect(bar).not.toContainText("updates when you save");

  await cms.call("PUT", `/content-manager/collection-types/api::page.page/${documentId}?locale=en`, {
    title: "Second draft",
  });
  await page.reload();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Second draft");
});
