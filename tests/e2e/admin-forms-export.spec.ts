import { readFileSync } from "node:fs";

import { expect, test } from "@playwright/test";

import { e2eEnv } from "../support/e2e-env.ts";
import { adminPageForThisFile } from "../support/strapi-admin-ui.ts";

// The forms plugin's "Export CSV" button (cms/src/plugins/forms/admin/src/export-submissions-button.jsx)
// in the real admin UI: a submission sent through the site's /contact form, then the button in the
// Content Manager's list of submissions downloads the CSV through GET /forms/submissions.csv, the
// whole export or, with the list filtered to one form, that form's. js-on only (playwright.config.ts).

test.describe.configure({ timeout: 180_000 });
const admin = adminPageForThisFile(() => e2eEnv("E2E_CMS_URL"));
const LIST = "/admin/content-manager/collection-types/plugin::forms.submission?page=1&pageSize=10";
const HEADER = "submittedAt,form,pagePath,pageLocale,mailStatus";

test("the submissions list's Export CSV button downloads every form's submissions, or the filtered form's", async ({
  page,
}, testInfo) => {
  const email = `export-${testInfo.project.name}-${Date.now()}@example.com`;
  await page.goto("/contact");
  const form = page.getByRole("region", { name: "Send us a message" });
  await form.getByLabel("Your name").fill("Export Visitor");
  await form.getByLabel("Email").fill(email);
  await form.getByRole("textbox", { name: /^Message/ }).fill("Please export me.");
  await form.getByLabel(/I agree/).check();
  await form.getByRole("button", { name: "Send message" }).click();
  await expect(page.getByRole("status")).toContainText("Thank you");

  const cms = admin();
  const download = async (name: string) => {
    const button = cms.getByRole("button", { name });
    await expect(button).toBeVisible({ timeout: 120_000 });
    const [file] = await Promise.all([cms.waitForEvent("download"), button.click()]);
    return { name: file.suggestedFilename(), text: readFileSync((await file.path())!, "utf8") };
  };

  await cms.goto(LIST);
  const all = await download("Export CSV (all forms)");
  expect(all.name).toBe("form-submissions.csv");
  expect(all.text.startsWith(HEADER)).toBe(true);
  expect(all.text).toContain(email);

  await cms.goto(`${LIST}&filters[$and][0][form][$eq]=newsletter`);
  const newsletter = await download("Export CSV (newsletter)");
  expect(newsletter.name).toBe("form-submissions-newsletter.csv");
  expect(newsletter.text.startsWith(HEADER)).toBe(true);
  expect(newsletter.text).not.toContain(email);

  // The button belongs to the submissions list only.
  await cms.goto("/admin/content-manager/collection-types/api::article.article?page=1&pageSize=10");
  await expect(cms.getByRole("main").getByRole("grid")).toBeVisible({ timeout: 120_000 });
  await expect(cms.getByRole("button", { name: /^Export CSV/ })).toHaveCount(0);
});
