import { describe, expect, it } from "vitest";

import { registerCmsUser } from "../support/cms-users.ts";
import { signInToSite } from "../support/site-requests.ts";
import { SITE_SECRET_HEADERS } from "../support/site-secret.ts";
import { StrapiAdmin } from "../support/strapi-admin.ts";
import { strapiSite } from "../support/strapi-site.ts";

/**
 * Each refusal of the users-permissions routes the site calls arrives from the real Strapi with
 * the accounts plugin's `details.code` (cms/src/plugins/accounts/server/users-permissions/refusal-codes.js;
 * docs/decisions/0042-account-refusal-codes.md), the only thing app/lib/auth/cms-users.server.ts
 * reads. The shared CMS (its settings unchanged: registration open, no email confirmation); the
 * unconfirmed address and closed registration, which need other settings, are in
 * auth-email-confirmation.test.ts. Addresses of this file only. The site (the production build)
 * for the last test: what a visitor is told.
 */

const site = strapiSite("cms-account-refusal-codes", { sharedCms: true, appEnv: { AUTH_RATE_LIMIT_MAX: "1000" } });
const cms = () => site.cms.url;
const PASSWORD = "Refusal-passw0rd!";

async function post(path: string, body: unknown, jwt?: string) {
  const response = await fetch(`${cms()}/api${path}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...SITE_SECRET_HEADERS,
      ...(jwt ? { authorization: `Bearer ${jwt}` } : {}),
    },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as { error?: { details?: { code?: string } } };
  return { status: response.status, code: answer.error?.details?.code };
}

const signIn = (identifier: string, password: string) => post("/auth/local", { identifier, password });

describe("the CMS's account refusals carry the accounts plugin's codes (real Strapi)", () => {
  it("sign-in: an unknown address and a wrong password are INVALID_CREDENTIALS", async () => {
    await registerCmsUser(cms(), "refusal-wrong@example.com", PASSWORD);
    expect(await signIn("refusal-nobody@example.com", PASSWORD)).toEqual({ status: 400, code: "INVALID_CREDENTIALS" });
    expect(await signIn("refusal-wrong@example.com", "Not-the-passw0rd")).toEqual({
      status: 400,
      code: "INVALID_CREDENTIALS",
    });
  });

  it("sign-in: a blocked user is BLOCKED with the right password only", async () => {
    const email = "refusal-blocked@example.com";
    await registerCmsUser(cms(), email, PASSWORD);
    await (await StrapiAdmin.login(cms())).setUserBlocked(email, true);
    expect(await signIn(email, PASSWORD)).toEqual({ status: 400, code: "BLOCKED" });
    expect(await signIn(email, "Not-the-passw0rd")).toEqual({ status: 400, code: "INVALID_CREDENTIALS" });
  });

  it("register: a taken address is EMAIL_TAKEN, a refused body INVALID_REGISTRATION", async () => {
    const email = "refusal-taken@example.com";
    await registerCmsUser(cms(), email, PASSWORD);
    const again = { username: email, email, password: PASSWORD };
    expect(await post("/auth/local/register", again)).toEqual({ status: 400, code: "EMAIL_TAKEN" });
    expect(await post("/auth/local/register", { ...again, email: email.toUpperCase() })).toEqual({
      status: 400,
      code: "EMAIL_TAKEN",
    });
    const badAddress = { username: "refusal-bad", email: "not an address", password: PASSWORD };
    expect(await post("/auth/local/register", badAddress)).toEqual({ status: 400, code: "INVALID_REGISTRATION" });
  });

  it("reset-password: a code nobody holds is INVALID_RESET_CODE", async () => {
    const body = { code: "refusal-no-such-code", password: PASSWORD, passwordConfirmation: PASSWORD };
    expect(await post("/auth/reset-password", body)).toEqual({ status: 400, code: "INVALID_RESET_CODE" });
  });

  it("change-password: a wrong current password is INVALID_PASSWORD, the same one SAME_PASSWORD", async () => {
    const { jwt } = await registerCmsUser(cms(), "refusal-change@example.com", PASSWORD);
    const change = (currentPassword: string, password: string) =>
      post("/auth/change-password", { currentPassword, password, passwordConfirmation: password }, jwt);
    expect(await change("Not-the-passw0rd", "New-passw0rd!")).toEqual({ status: 400, code: "INVALID_PASSWORD" });
    expect(await change(PASSWORD, PASSWORD)).toEqual({ status: 400, code: "SAME_PASSWORD" });
  });

  it("through the site: a blocked user is told so with the right password, and only then", async () => {
    const email = "refusal-site-blocked@example.com";
    await registerCmsUser(cms(), email, PASSWORD);
    await (await StrapiAdmin.login(cms())).setUserBlocked(email, true);
    const right = await signInToSite(site.app.url, email, PASSWORD);
    expect([right.status, right.body.code]).toEqual([403, "BLOCKED"]);
    const wrong = await signInToSite(site.app.url, email, "Not-the-passw0rd");
    expect([wrong.status, wrong.body.code]).toEqual([401, "INVALID_CREDENTIALS"]);
  });
});
