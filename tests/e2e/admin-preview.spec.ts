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

// Live preview (docs/live-preview.md): a save in the admin's Preview makes Strapi post
// `strapiUpdate` to the iframe, and the page re-renders with the saved draft in place: the same
// document (no page load), the scroll position kept, one `.data` request. A `strapiUpdate` from any
// other origin (here the site's own) is ignored.
test("a save in the Preview shows the saved draft in place: no reload, scroll kept, other origins ignored", async () => {
  test.setTimeout(90_000);
  const slug = `admin-live-${Date.now().toString(36)}`;
  // A draft taller than the pane, so that there is a scroll position to keep.
  const body = Array.from({ length: 60 }, (_, i) => ({
    type: "paragraph",
    children: [{ type: "text", text: `Paragraph ${i + 1} of a long draft.` }],
  }));
  const documentId = await (
    await StrapiAdmin.login(cmsUrl())
  ).pageWithDraft(slug, "Live words", "Draft before the save", { body });

  await adminPage().goto(
    `/admin/content-manager/collection-types/api::page.page/${documentId}?plugins[i18n][locale]=en`,
  );
  await adminPage()
    .getByRole("main")
    .getByRole("link", { name: "Open preview" })
    .or(adminPage().getByRole("button", { name: "Open preview" }))
    .click();

  const site = adminPage().frameLocator('iframe[data-testid="preview-iframe"]');
  await expect(site.getByRole("heading", { level: 1 })).toHaveText("Draft before the save", { timeout: 20_000 });
  // Said once the page has hydrated and listens: before that a save's message would be missed.
  await expect(site.getByRole("complementary", { name: "Preview" })).toContainText("updates when you save", {
    timeout: 20_000,
  });
  const frame = await (await adminPage()
    .locator('iframe[data-testid="preview-iframe"]')
    .elementHandle())!.contentFrame();
  if (!frame) throw new Error("the preview iframe has no document");
  const dataRequests: string[] = [];
  adminPage().on("request", (request) => {
    if (new URL(request.url()).pathname === `/${slug}.data`) dataRequests.push(request.url());
  });
  const scrolled = await frame.evaluate(() => {
    (window as { sameDocument?: boolean }).sameDocument = true;
    window.scrollTo(0, 700);
    // Anybody's strapiUpdate but the admin's: from the site's own origin.
    window.postMessage({ type: "strapiUpdate" }, "*");
    return window.scrollY;
  });
  expect(scrolled).toBeGreaterThan(0);

  await adminPage()
    .getByRole("textbox", { name: /^title/ })
    .fill("Saved in the preview");
  await adminPage().getByRole("button", { name: "Save" }).click();

  await expect(site.getByRole("heading", { level: 1 })).toHaveText("Saved in the preview", { timeout: 20_000 });
  expect(
    await frame.evaluate(() => ({
      sameDocument: (window as { sameDocument?: boolean }).sameDocument,
      scrollY: window.scrollY,
    })),
  ).toEqual({ sameDocument: true, scrollY: scrolled });
  // The admin's message alone: the forged one, posted before the save, asked for nothing.
  expect(dataRequests).toHaveLength(1);
});
