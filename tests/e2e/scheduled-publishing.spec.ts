import { expect, test, type Page } from "@playwright/test";

import { e2eEnv } from "../support/e2e-env.ts";
import { StrapiAdmin } from "../support/strapi-admin.ts";

// Issue 32, point 3, in a real browser (JavaScript on and off): scheduled publishing as visitors
// see it (docs/scheduled-publishing.md). The seed's article scheduled for 2099 is nowhere, in
// either locale; an article an editor schedules a few seconds ahead appears on the blog when it
// is due, dated then. The e2e CMS ticks every second (tests/e2e/global-setup.ts); the test waits
// for the article to appear, with a deadline computed from its schedule.

const ARTICLES = "/content-manager/collection-types/api::article.article";
/** One tick of the e2e CMS's scheduler, and the publish-to-visible time on a loaded machine. */
const TICK_MS = 1_000;
const PUBLISH_TO_VISIBLE_MS = 15_000;

test("the article scheduled for 2099 is on no page a visitor can reach, in English or German", async ({ page }) => {
  await page.goto("/blog");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Blog");
  await expect(page.getByRole("link", { name: "Acme 3.0 is out" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Acme 4.0 preview" })).toHaveCount(0);
  const article = await page.goto("/blog/acme-4-preview");
  expect(article?.status()).toBe(404);

  await page.goto("/de/blog");
  await expect(page.getByRole("link", { name: "Acme 3.0 ist da" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Vorschau auf Acme 4.0" })).toHaveCount(0);
  expect((await page.goto("/de/blog/acme-4-vorschau"))?.status()).toBe(404);
});

test("an article scheduled seconds ahead appears on the blog when due, dated its scheduled time", async ({
  page,
}, testInfo) => {
  const admin = await StrapiAdmin.login(e2eEnv("E2E_CMS_URL"));
  const slug = `scheduled-${testInfo.project.name}-${Date.now().toString(36)}`;
  const title = `Scheduled for ${testInfo.project.name}`;
  const publishAt = new Date(Date.now() + 4_000).toISOString();
  const created = await admin.call("POST", `${ARTICLES}?locale=en`, {
    title,
    slug,
    excerpt: "Due in seconds.",
    publishAt,
  });

  const deadline = Date.parse(publishAt) + TICK_MS + PUBLISH_TO_VISIBLE_MS;
  // The clean-up below waits for one more publish-to-visible time.
  test.setTimeout(testInfo.timeout + Math.max(0, deadline - Date.now()) + PUBLISH_TO_VISIBLE_MS);
  try {
    await appearsWhenDue(page, { title, slug, publishAt, deadline });
  } finally {
    // The specs after this one (the cards of sections.spec.ts, the screenshots of visual.spec.ts)
    // see the blog and the home page as seeded: the article goes again, and the test waits until
    // both pages no longer show it.
    await admin.call(
      "DELETE",
      `${ARTICLES}/${(created as { data: { documentId: string } }).data.documentId}?locale=en`,
    );
    for (const path of ["/blog", "/"]) {
      await expect
        .poll(async () => (await (await page.request.get(path)).text()).includes(title), {
          message: `${path} without the scheduled article`,
          timeout: PUBLISH_TO_VISIBLE_MS,
          intervals: [250],
        })
        .toBe(false);
    }
  }
});

async function appearsWhenDue(
  page: Page,
  { title, slug, publishAt, deadline }: { title: string; slug: string; publishAt: string; deadline: number },
) {
  // A page load per look, as a visitor reloading the blog: JavaScript on or off alike.
  await expect(async () => {
    await page.goto("/blog");
    await expect(page.getByRole("link", { name: title })).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: Math.max(0, deadline - Date.now()), intervals: [250] });
  expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(publishAt));

  await page.getByRole("link", { name: title }).click();
  await expect(page).toHaveURL(new RegExp(`/blog/${slug}$`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
  await expect(page.locator("time")).toHaveAttribute("datetime", publishAt);
}
