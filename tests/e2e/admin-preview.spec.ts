import { expect, test } from "@playwright/test";

import { StrapiAdmin } from "../support/strapi-admin.ts";
import { adminPageForThisFile } from "../support/strapi-admin-ui.ts";
import { e2eEnv } from "../support/e2e-env.ts";

// Strapi's own Preview tab in the real admin UI (cms/config/adminPage().js, cms/src/preview/): the
// site's page in an iframe, the draft under the "Preview: draft" bar, and the published page on
// the Published tab. Needs the site to let the admin frame preview answers (frame-ancestors)
// and the preview cookie to work inside the iframe. js-on only: the admin UI needs JavaScript.
const cmsUrl = () => e2eEnv("E2E_CMS_URL");

// One admin page, signed in once, for the whole file.
const adminPage = adminPageForThisFile(cmsUrl);

test("the Preview tab shows the draft page of the site; the Published tab the published one", async () => {
  // The admin edit view is slow on its first open (lazy bundles, content-type settings); on a busy
  // 2-core machine it took 30 s once, the default timeout.
  test.setTimeout(90_000);
  const slug = `admin-preview-${Date.now().toString(36)}`;
  const documentId = await (await StrapiAdmin.login(cmsUrl())).pageWithDraft(slug, "Live words", "Unpublished words");

  await adminPage().goto(
    `/admin/content-manager/collection-types/api::page.page/${documentId}?plugins[i18n][locale]=en`,
  );
  await adminPage()
    .getByRole("main")
    .getByRole("link", { name: "Open preview" })
    .or(adminPage().getByRole("button", { name: "Open preview" }))
    .click();

  const site = adminPage().frameLocator('iframe[data-testid="preview-iframe"]');
  await expect(site.getByRole("heading", { level: 1 })).toHaveText("Unpublished words", { timeout: 20_000 });
  await expect(site.getByRole("complementary", { name: "Preview" })).toContainText("Preview: draft");

  await adminPage().getByRole("tab", { name: "Published" }).click();
  await expect(site.getByRole("heading", { level: 1 })).toHaveText("Live words", { timeout: 20_000 });
  await expect(site.getByText("Preview: draft")).toHaveCount(0);
});
