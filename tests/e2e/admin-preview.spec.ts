import { expect, test, type Page } from "@playwright/test";

import { StrapiAdmin } from "../support/strapi-admin.ts";
import { signInToAdmin } from "../support/strapi-admin-ui.ts";

// Strapi's own Preview tab in the real admin UI (cms/config/admin.js, cms/src/preview/): the
// site's page in an iframe, the draft under the "Preview: draft" bar, and the published page on
// the Published tab. Needs the site to let the admin frame preview answers (frame-ancestors)
// and the preview cookie to work inside the iframe. js-on only: the admin UI needs JavaScript.
const cmsUrl = () => process.env.E2E_CMS_URL ?? "";

test.describe.configure({ mode: "serial" });

let admin: Page;

test.beforeAll(async ({ browser }) => {
  admin = await signInToAdmin(browser, cmsUrl());
});

test.afterAll(async () => {
  await admin?.close();
});

test("the Preview tab shows the draft page of the site; the Published tab the published one", async () => {
  const slug = `admin-preview-${Date.now().toString(36)}`;
  const documentId = await (await StrapiAdmin.login(cmsUrl())).pageWithDraft(slug, "Live words", "Unpublished words");

  await admin.goto(`/admin/content-manager/collection-types/api::page.page/${documentId}?plugins[i18n][locale]=en`);
  await admin
    .getByRole("main")
    .getByRole("link", { name: "Open preview" })
    .or(admin.getByRole("button", { name: "Open preview" }))
    .click();

  const site = admin.frameLocator('iframe[data-testid="preview-iframe"]');
  await expect(site.getByRole("heading", { level: 1 })).toHaveText("Unpublished words", { timeout: 20_000 });
  await expect(site.getByRole("complementary", { name: "Preview" })).toContainText("Preview: draft");

  await admin.getByRole("tab", { name: "Published" }).click();
  await expect(site.getByRole("heading", { level: 1 })).toHaveText("Live words", { timeout: 20_000 });
  await expect(site.getByText("Preview: draft")).toHaveCount(0);
});
