import path from "node:path";

import { describe, expect, it } from "vitest";

import { postAuthForm } from "../support/auth-form.ts";
import { waitForMail } from "../support/cms-mail.ts";
import { registerCmsUser } from "../support/cms-users.ts";
import { postToSite, signInToSite } from "../support/site-requests.ts";
import { strapiSite } from "../support/strapi-site.ts";

/**
 * Reset links expire (cms/src/plugins/accounts/server/users-permissions/reset-link-expiry.js). Strapi's reset
 * codes never did: a link from an old or forwarded mail still set a new password. The CMS here
 * gives links no time at all (CMS_RESET_LINK_TTL_SECONDS=0), so every link is already expired when
 * it is used: the answer says so, in the page's language, and nothing changes. Links within their
 * time (the default hour) are what every other reset test uses.
 */

const site = strapiSite("auth-reset-expiry", {
  cmsEnv: (dir) => ({ CMS_MAIL_DIR: path.join(dir, "mail"), CMS_RESET_LINK_TTL_SECONDS: "0" }),
  appEnv: { AUTH_RATE_LIMIT_MAX: "1000" },
});

/** Asks the site for a reset mail for `email` and returns the link's code. */
async function resetCodeFor(email: string): Promise<string> {
  const before = Date.now();
  expect((await postToSite(site.app.url, "/api/auth/forgot-password-cms", { email })).status).toBe(200);
  const mail = await waitForMail(path.join(site.dir, "mail"), email, { after: before });
  return new URL(mail.resetLink!).searchParams.get("code")!;
}

describe("reset links expire (real Strapi)", () => {
  it("an expired link is refused with a message that says so, changes nothing, and is used up", async () => {
    const email = "expired-link@example.com";
    await registerCmsUser(site.cms.url, email, "Before-passw0rd!");
    const code = await resetCodeFor(email);
    const password = "After-passw0rd!";

    const page = await postAuthForm(site.app.url, `/de/reset-password?code=${code}`, {
      code,
      password,
      passwordConfirmation: password,
    });
    expect(page.status).toBe(400);
    const html = await page.text();
    expect(html).toContain("Dieser Link zum Zurücksetzen ist abgelaufen");
    expect(page.headers.getSetCookie().filter((cookie) => cookie.includes("session"))).toEqual([]);

    // Nothing changed: the old password still signs in, the new one does not.
    expect((await signInToSite(site.app.url, email, "Before-passw0rd!")).status).toBe(200);
    expect((await signInToSite(site.app.url, email, password)).status).toBe(401);
    // The expired code is gone: a second try is an unknown code.
    const again = await postToSite(site.app.url, "/api/auth/reset-password-cms", {
      code,
      password,
      passwordConfirmation: password,
    });
    expect(again.status).toBe(400);
    expect(((await again.json()) as { code: string }).code).toBe("INVALID_CODE");
  }, 60_000);
});
