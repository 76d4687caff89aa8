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

// Live preview (docs/live-preview.md). Strapi's Preview posts `strapiUpdate` to the iframe after its
// Save and its Publish. In Strapi's free edition the Preview has no form to edit (the side editor is
// a paid feature), so its Save stays disabled and its Publish publishes the draft as the Preview
// loaded it: clicking it here shows that the real admin's message reaches the page and makes it run
// its loaders again (one `.data` request) in place. Then the draft is changed as the side editor's
// Save does (the content-manager API) and the admin's window posts what its Save posts next (the
// same message, from the admin's origin, as Strapi's own code does): the page shows the new draft.
// Both without a page load, the scroll position kept. A `strapiUpdate` from any other origin (here
// the site's own) is ignored. The page's poll of the draft's version (the next test) is cut off
// here, so that what refreshes the page is the message alone.
test("the Preview's messages re-render the page with the current draft in place: no reload, scroll kept, other origins ignored", async () => {
  test.setTimeout(90_000);
  const slug = `admin-live-${Date.now().toString(36)}`;
  // A draft taller than the pane, so that there is a scroll position to keep.
  const body = Array.from({ length: 60 }, (_, i) => ({
    type: "paragraph",
    children: [{ type: "text", text: `Paragraph ${i + 1} of a long draft.` }],
  }));
  const cms = await StrapiAdmin.login(cmsUrl());
  const documentId = await cms.pageWithDraft(slug, "Live words", "Draft before the save", { body });
  await adminPage().route("**/api/preview/version?*", (route) => route.abort());

  await adminPage().goto(
    `/admin/content-manager/collection-types/api::page.page/${documentId}?plugins[i18n][locale]=en`,
  );
  await adminPage()
    .getByRole("main")
    .getByRole("link", { name: "Open preview" })
    .or(adminPage().getByRole("button", { name: "Open preview" }))
    .click();

  const iframe = adminPage().locator('iframe[data-testid="preview-iframe"]');
  const site = adminPage().frameLocator('iframe[data-testid="preview-iframe"]');
  await expect(site.getByRole("heading", { level: 1 })).toHaveText("Draft before the save", { timeout: 20_000 });
  // Said once the page has hydrated and listens: before that a message would be missed.
  await expect(site.getByRole("complementary", { name: "Preview" })).toContainText("updates when you save", {
    timeout: 20_000,
  });
  const frame = await (await iframe.elementHandle())!.contentFrame();
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
  const inPlace = async () =>
    expect(
      await frame.evaluate(() => ({
        sameDocument: (window as { sameDocument?: boolean }).sameDocument,
        scrollY: window.scrollY,
      })),
    ).toEqual({ sameDocument: true, scrollY: scrolled });

  // The real admin's message: its Publish.
  await adminPage().getByRole("banner").getByRole("button", { name: "Publish" }).click();
  await expect.poll(() => dataRequests.length, { timeout: 20_000 }).toBe(1);
  await inPlace();

  // A new draft, then the message the side editor's Save sends after it.
  await cms.call("PUT", `/content-manager/collection-types/api::page.page/${documentId}?locale=en`, {
    title: "Saved in the editor",
  });
  await iframe.evaluate((element: HTMLIFrameElement) =>
    element.contentWindow!.postMessage({ type: "strapiUpdate" }, new URL(element.src).origin),
  );
  await expect(site.getByRole("heading", { level: 1 })).toHaveText("Saved in the editor", { timeout: 20_000 });
  await inPlace();
  // Two messages from the admin, two requests: the forged one, posted first, asked for nothing.
  expect(dataRequests).toHaveLength(2);
  await adminPage().unroute("**/api/preview/version?*");
});

// A save in the edit view (Strapi's free edition sends the preview no message then): the page in
// preview, open beside the admin (here another window, opened at the link the admin's Preview
// loads in its iframe), asks the site for the draft's version every few seconds and shows the saved
// draft in place: no page load, the scroll position kept.
test("a draft saved in the edit view shows in the open preview without a reload, scroll kept", async ({
  page: preview,
}) => {
  test.setTimeout(120_000);
  const slug = `admin-saved-${Date.now().toString(36)}`;
  const body = Array.from({ length: 60 }, (_, i) => ({
    type: "paragraph",
    children: [{ type: "text", text: `Paragraph ${i + 1} of a long draft.` }],
  }));
  const cms = await StrapiAdmin.login(cmsUrl());
  const documentId = await cms.pageWithDraft(slug, "Live words", "Draft before the edit", { body });
  const editView = `/admin/content-manager/collection-types/api::page.page/${documentId}?plugins[i18n][locale]=en`;

  await adminPage().goto(editView);
  await adminPage()
    .getByRole("main")
    .getByRole("link", { name: "Open preview" })
    .or(adminPage().getByRole("button", { name: "Open preview" }))
    .click();
  const link = await adminPage().locator('iframe[data-testid="preview-iframe"]').getAttribute("src");
  if (!link) throw new Error("the Preview's iframe has no src");

  await preview.goto(link);
  await expect(preview.getByRole("heading", { level: 1 })).toHaveText("Draft before the edit");
  await expect(preview.getByRole("complementary", { name: "Preview" })).toContainText("updates when you save", {
    timeout: 20_000,
  });
  // The first answer of the version endpoint is the poll's baseline: the save comes after it.
  await preview.waitForResponse((response) => new URL(response.url()).pathname === "/api/preview/version");
  const scrolled = await preview.evaluate(() => {
    (window as { sameDocument?: boolean }).sameDocument = true;
    window.scrollTo(0, 700);
    return window.scrollY;
  });
  expect(scrolled).toBeGreaterThan(0);

  await adminPage().goto(editView);
  const main = adminPage().getByRole("main");
  const title = main.getByRole("textbox", { name: "title" });
  await expect(title).toHaveValue("Draft before the edit", { timeout: 60_000 });
  await title.fill("Saved in the edit view");
  await main.getByRole("button", { name: "Save" }).click();

  await expect(preview.getByRole("heading", { level: 1 })).toHaveText("Saved in the edit view", {
    timeout: 20_000,
  });
  expect(
    await preview.evaluate(() => ({
      sameDocument: (window as { sameDocument?: boolean }).sameDocument,
      scrollY: window.scrollY,
    })),
  ).toEqual({ sameDocument: true, scrollY: scrolled });
});
