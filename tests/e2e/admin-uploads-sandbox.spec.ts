import { writeFileSync } from "node:fs";
import path from "node:path";

import { expect, test, type ConsoleMessage, type Request } from "@playwright/test";

import { e2eEnv, siteOrigin } from "../support/e2e-env.ts";
import { adminPageForThisFile } from "../support/strapi-admin-ui.ts";

// Issue 30, point 2 (docs/security.md, finding 41) in Chromium: an HTML file with a script in the
// CMS's uploads folder (as an older database has it, from before uploads were checked), opened by a
// signed-in Super Admin, does not run. On the CMS's origin it is a download, never a page; through
// the site's /uploads it is shown sandboxed, its script blocked. The script is the attack's: it
// asks the CMS for an admin token with the admin's refresh cookie. js-on only (admin-*.spec.ts).
const cmsUrl = () => e2eEnv("E2E_CMS_URL");
// The sign-in opens the admin UI, slow on its first load (lazy bundles): on a busy 2-core machine it
// took over 30 s, the default, as admin-preview.spec.ts's edit view does.
test.describe.configure({ timeout: 90_000 });
const adminPage = adminPageForThisFile(cmsUrl);

const PROBE = `<!doctype html><html><head><title>probe</title></head><body><h1>An uploaded page</h1><script>
document.body.setAttribute("data-ran", "yes");
fetch("/admin/access-token", { method: "POST", credentials: "include" });
</script></body></html>`;

function putInUploads(): string {
  const name = `probe_${Date.now().toString(36)}.html`;
  writeFileSync(path.join(e2eEnv("E2E_CMS_UPLOADS_DIR"), name), PROBE);
  return `/uploads/${name}`;
}

test("on the CMS's origin, a signed-in admin opening an uploaded HTML page gets a download; nothing runs", async () => {
  const address = putInUploads();
  // The signed-in admin's own page (its context holds the admin's refresh cookie).
  const page = adminPage();
  const asked: string[] = [];
  const record = (request: Request) => asked.push(new URL(request.url()).pathname);
  page.on("request", record);
  try {
    const download = page.waitForEvent("download");
    // A download ends the navigation with an error: the file is not a page.
    await page.goto(`${cmsUrl()}${address}`).catch(() => undefined);
    expect((await download).suggestedFilename()).toBe(path.basename(address));
    expect(asked).toContain(address);
    expect(asked.filter((pathname) => pathname.startsWith("/admin"))).toEqual([]);
  } finally {
    page.off("request", record);
  }
});

test("through the site's /uploads, the same page is shown sandboxed: its script is blocked", async () => {
  const address = putInUploads();
  // The signed-in admin's own page (its context holds the admin's refresh cookie).
  const page = adminPage();
  const asked: string[] = [];
  const record = (request: Request) => asked.push(new URL(request.url()).pathname);
  page.on("request", record);
  try {
    const blocked = page.waitForEvent("console", (message: ConsoleMessage) =>
      /Blocked script execution|Content Security Policy/i.test(message.text()),
    );
    await page.goto(`${siteOrigin()}${address}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("An uploaded page");
    await blocked;
    expect(await page.locator("body").getAttribute("data-ran")).toBeNull();
    expect(asked).toContain(address);
    expect(asked.filter((pathname) => pathname.startsWith("/admin"))).toEqual([]);
  } finally {
    page.off("request", record);
  }
});
