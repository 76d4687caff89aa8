import { expect, test, type APIRequestContext } from "@playwright/test";

import { StrapiAdmin } from "../support/strapi-admin.ts";
import { e2eEnv } from "../support/e2e-env.ts";

// Content changed in the real Strapi reaches the cached site once /api/cms-revalidate is
// called the way the CMS calls it. This site has a CDN in front (Varnish, CDN_PROVIDER): a page's
// revalidation renders it again before it is answered, so the next request already gets the new
// content (decision 0028); a tag's marks every page stale: first STALE with the old content.
const cmsUrl = () => e2eEnv("E2E_CMS_URL");
const secret = () => e2eEnv("E2E_REVALIDATE_SECRET");

async function revalidate(
  request: APIRequestContext,
  next: { fullPaths?: string[]; tags?: string[] },
  uid = "api::page.page",
) {
  const response = await request.post("/api/cms-revalidate", {
    headers: { authorization: `Bearer ${secret()}` },
    data: { uid, next },
  });
  expect(response.status()).toBe(200);
}

async function eventually(request: APIRequestContext, path: string, predicate: (html: string) => boolean) {
  await expect
    .poll(
      async () => {
        const response = await request.get(path);
        return response.headers()["x-cache"] === "HIT" && predicate(await response.text());
      },
      { timeout: 10_000 },
    )
    .toBe(true);
}

test("an edited page title: behind a CDN the next request already gets the new title (HIT)", async ({
  page,
  request,
}, info) => {
  const admin = await StrapiAdmin.login(cmsUrl());
  const newTitle = `Company (${info.project.name} edit ${Date.now()})`;
  // Earlier tests may have left /company stale: wait until it is a settled HIT.
  await request.get("/company");
  await eventually(request, "/company", () => true);
  const cached = await request.get("/company");
  const oldTitle = (await cached.text()).match(/<h1>([^<]*)<\/h1>/)?.[1];
  expect(oldTitle, "the cached page has an h1").toBeTruthy();

  const documentId = await admin.pageDocumentId("/company", "en");
  await admin.updateAndPublishPage(documentId, "en", { title: newTitle });
  await revalidate(request, { fullPaths: ["/company"] });

  const next = await request.get("/company");
  expect(next.headers()["x-cache"]).toBe("HIT");
  expect(await next.text()).toContain(`<h1>${newTitle}</h1>`);

  await page.goto("/company");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(newTitle);

  // Put the title back for the other tests (the screenshots of tests/e2e/visual.spec.ts show it).
  await admin.updateAndPublishPage(documentId, "en", { title: oldTitle });
  await revalidate(request, { fullPaths: ["/company"] });
  await request.get("/company");
  await eventually(request, "/company", (html) => html.includes(`<h1>${oldTitle}</h1>`));
});

test("a navbar change reaches every cached page once its tag is revalidated", async ({ page, request }, info) => {
  const admin = await StrapiAdmin.login(cmsUrl());
  for (const path of ["/positions", "/company/careers"]) {
    await request.get(path);
    await eventually(request, path, () => true);
  }
  const label = `Press ${info.project.name}`;
  // Put back as it was below: the seed's links are references, with a drop-down (docs/links.md).
  const seeded = await admin.links("api::navbar.navbar", "en");
  await admin.setLinks("api::navbar.navbar", "en", [...seeded, { label, url: "/company" }]);
  await revalidate(request, { tags: ["cms:api::navbar.navbar"] }, "api::navbar.navbar");

  for (const path of ["/positions", "/company/careers"]) {
    expect((await request.get(path)).headers()["x-cache"]).toBe("STALE");
    await eventually(request, path, (html) => html.includes(label));
  }
  await page.goto("/positions");
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: label })).toBeVisible();

  // Put the seeded navbar back for the other tests.
  await admin.setLinks("api::navbar.navbar", "en", seeded);
  await revalidate(request, { tags: ["cms:api::navbar.navbar"] }, "api::navbar.navbar");
  for (const path of ["/positions", "/company/careers"]) {
    await request.get(path);
    await eventually(request, path, (html) => !html.includes(label));
  }
});
