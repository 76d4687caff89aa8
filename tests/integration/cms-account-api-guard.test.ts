import { describe, expect, it } from "vitest";

import { waitForMail } from "../support/cms-mail.ts";
import { registerCmsUser } from "../support/cms-users.ts";
import { SITE_SECRET_HEADERS, TEST_ACCOUNT_API_SECRET } from "../support/site-secret.ts";
import { postToSite, signInToSite } from "../support/site-requests.ts";
import { strapiSite } from "../support/strapi-site.ts";

/**
 * Security finding 24: password guessing past the site, at the CMS. strapiSite gives both sides
 * CMS_ACCOUNT_API_SECRET, so the CMS's users-permissions account routes (/api/auth/*,
 * /api/connect/*) answer only a call with `X-Site-Secret` (the site's server): a direct guess at
 * the CMS's port gets 403 SITE_ONLY, whatever the path's spelling, and the site's own account
 * flows (with its lockout, known devices and bot check) still work.
 */

const site = strapiSite("cms-account-api-guard", {
  sharedCms: true,
  // The site's own limits are not what this file tests.
  appEnv: { AUTH_RATE_LIMIT_MAX: "1000", AUTH_FORM_MIN_FILL_MS: "0" },
});

const PASSWORD = "Guard-passw0rd!";

/** A request straight to the CMS's port, as an attacker sends it (raw path: no URL normalisation by fetch). */
async function atCms(method: string, rawPath: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${site.cms.url}${rawPath}`, {
    method,
    headers: { "content-type": "application/json", ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
    redirect: "manual",
  });
  const text = await response.text();
  let json: { error?: { status?: number; name?: string; message?: string; details?: { code?: string } } } = {};
  try {
    json = JSON.parse(text) as typeof json;
  } catch {
    // not JSON: left empty
  }
  return { status: response.status, json, text };
}

function expectSiteOnly(answer: Awaited<ReturnType<typeof atCms>>, what: string) {
  expect(answer.status, `${what}: ${answer.text}`).toBe(403);
  expect(answer.json.error, what).toMatchObject({
    status: 403,
    name: "ForbiddenError",
    details: { code: "SITE_ONLY" },
  });
  expect(answer.json.error?.message, what).toMatch(/site's server only/);
}

describe("the CMS's account routes answer the site only (CMS_ACCOUNT_API_SECRET)", () => {
  it("a direct POST /api/auth/local with the right password is refused (403 SITE_ONLY), a wrong header too", async () => {
    await registerCmsUser(site.cms.url, "target@example.com", PASSWORD);
    const credentials = { identifier: "target@example.com", password: PASSWORD };

    // Guessing at the port: every try, the right password included, gets the same 403.
    for (let i = 0; i < 20; i++) {
      expectSiteOnly(await atCms("POST", "/api/auth/local", { ...credentials, password: `wrong-${i}` }), `guess ${i}`);
    }
    expectSiteOnly(await atCms("POST", "/api/auth/local", credentials), "right password, no header");
    for (const wrong of ["", "x", TEST_ACCOUNT_API_SECRET.slice(0, -1), `${TEST_ACCOUNT_API_SECRET}0`]) {
      expectSiteOnly(
        await atCms("POST", "/api/auth/local", credentials, { "x-site-secret": wrong }),
        `wrong header ${JSON.stringify(wrong)}`,
      );
    }
    expectSiteOnly(
      await atCms("POST", "/api/auth/local", credentials, { authorization: `Bearer ${TEST_ACCOUNT_API_SECRET}` }),
      "the secret as a Bearer token",
    );

    // The same call as the site sends it: 200 with a JWT (what everyone got before the guard).
    const asSite = await atCms("POST", "/api/auth/local", credentials, SITE_SECRET_HEADERS);
    expect(asSite.status, asSite.text).toBe(200);
    expect(asSite.text).toContain('"jwt"');
  });

  it("every spelling of the path is refused (case, trailing slash, //, percent-encoding, dot segments)", async () => {
    const credentials = { identifier: "target@example.com", password: PASSWORD };
    const spellings = [
      "/API/AUTH/LOCAL",
      "/api/Auth/Local",
      "/api/auth/local/",
      "/api/auth/local//",
      "//api/auth/local",
      "/api//auth///local",
      "/api/auth/%6Cocal",
      "/api/auth/%6c%6F%63%61%6C",
      "/api%2Fauth%2Flocal",
      "/api/auth%252Flocal",
      "/api/auth/local%2F",
      "/api/auth/./local",
      "/api/users/../auth/local",
      "/api/auth/local?identifier=x",
    ];
    for (const spelling of spellings) {
      expectSiteOnly(await atCms("POST", spelling, credentials), spelling);
      expectSiteOnly(
        await atCms("POST", spelling, credentials, { "x-site-secret": "wrong" }),
        `${spelling}, wrong header`,
      );
    }
  });

  it("register, forgot/reset/change password, email confirmation and Strapi's provider sign-in are site-only too", async () => {
    const routes: [string, string, unknown?][] = [
      ["POST", "/api/auth/local/register", { username: "x@example.com", email: "x@example.com", password: PASSWORD }],
      ["POST", "/api/auth/forgot-password", { email: "target@example.com" }],
      [
        "POST",
        "/api/auth/reset-password",
        { code: "0".repeat(40), password: PASSWORD, passwordConfirmation: PASSWORD },
      ],
      ["POST", "/api/auth/change-password", { currentPassword: PASSWORD, password: "x", passwordConfirmation: "x" }],
      ["POST", "/api/auth/send-email-confirmation", { email: "target@example.com" }],
      ["GET", "/api/auth/email-confirmation?confirmation=0123456789abcdef"],
      ["GET", "/api/connect/github"],
      ["GET", "/api/connect/google/callback?code=x"],
      ["GET", "/api/auth/github/callback?access_token=x"],
      ["GET", "/API/Connect/GitHub/"],
    ];
    for (const [method, route, body] of routes) expectSiteOnly(await atCms(method, route, body), `${method} ${route}`);
    // Nobody was registered by the refused call.
    const signIn = await atCms(
      "POST",
      "/api/auth/local",
      { identifier: "x@example.com", password: PASSWORD },
      SITE_SECRET_HEADERS,
    );
    expect(signIn.status).toBe(400);
  });

  it("the JWT routes and public content stay as they are (no header needed)", async () => {
    const { jwt } = await registerCmsUser(site.cms.url, "jwt-user@example.com", PASSWORD);
    const me = await atCms("GET", "/api/users/me", undefined, { authorization: `Bearer ${jwt}` });
    expect(me.status, me.text).toBe(200);
    expect(me.text).toContain("jwt-user@example.com");
    const pages = await atCms("GET", "/api/pages", undefined, { authorization: `Bearer ${site.cms.token}` });
    expect(pages.status, pages.text).toBe(200);
    expect((await fetch(`${site.cms.url}/_health`)).status).toBe(204);
  });

  it("through the site: register, sign in, forgot and reset password all work (it sends the header)", async () => {
    const email = "through-site@example.com";
    const registered = await postToSite(site.app.url, "/api/auth/register-cms", {
      email,
      password: PASSWORD,
      passwordConfirmation: PASSWORD,
    });
    expect(registered.status, await registered.clone().text()).toBe(200);
    expect((await signInToSite(site.app.url, email, PASSWORD)).status).toBe(200);
    expect((await signInToSite(site.app.url, email, "Wrong-passw0rd!")).status).toBe(401);

    const before = Date.now();
    expect((await postToSite(site.app.url, "/api/auth/forgot-password-cms", { email })).status).toBe(200);
    const mail = await waitForMail(site.mailDir, email, { after: before });
    const code = new URL(mail.resetLink!).searchParams.get("code");
    const password = "Reset-passw0rd!";
    const reset = await postToSite(site.app.url, "/api/auth/reset-password-cms", {
      code,
      password,
      passwordConfirmation: password,
    });
    expect(reset.status, await reset.text()).toBe(200);
    expect((await signInToSite(site.app.url, email, password)).status).toBe(200);
    expect((await signInToSite(site.app.url, email, PASSWORD)).status).toBe(401);
  }, 60_000);
});
