import { describe, expect, it } from "vitest";

import { registerCmsUser } from "../support/cms-users.ts";
import { SHARED_CMS_ENV } from "../support/shared-cms.ts";
import { StrapiAdmin } from "../support/strapi-admin.ts";
import { siteSession } from "../support/site-session.ts";
import { strapiSite } from "../support/strapi-site.ts";

/**
 * Sessions under the user's control (issue 15), through the real Strapi and the production
 * site without Redis: remember me, sign out everywhere, a user blocked or deleted in the CMS,
 * a sign-out that survives a restart of the site, a new session after a password change, and
 * the origin guard on the new form.
 */

const TIMEOUT = 240_000;
const SYNC_SECRET = SHARED_CMS_ENV.CMS_OAUTH_SYNC_SECRET;
const site = strapiSite("auth-session-control", {
  sharedCms: true,
  appEnv: { CMS_FETCH_TIMEOUT_MS: "5000", AUTH_RATE_LIMIT_MAX: "1000" },
});
const client = siteSession(() => site.app.url);
const PASSWORD = "Session-passw0rd!";

const registerInCms = (email: string, password = PASSWORD) => registerCmsUser(site.cms.url, email, password);

/** The Set-Cookie header of one cookie (by the end of its name). */
function setCookie(response: Response, name: string): string {
  const found = response.headers.getSetCookie().find((value) => value.split("=")[0]?.endsWith(name));
  expect(found, `${name} in ${response.headers.getSetCookie().join(" | ")}`).toBeDefined();
  return found!;
}

describe("remember me", () => {
  it("without it: a browser-session token cookie (no Max-Age, no Expires); with it: the configured week", async () => {
    await registerInCms("remember@example.com");
    const session = await client.postJson("/api/auth/sign-in-cms", {
      email: "remember@example.com",
      password: PASSWORD,
    });
    expect(session.status).toBe(200);
    expect(setCookie(session, "session_token")).not.toMatch(/Max-Age|Expires/i);
    // The encrypted cookie lasts as long as the session could; without the token it is no session.
    const cookie = client.cookieOf(session);
    expect(await client.emailOf(cookie)).toBe("remember@example.com");
    const withoutToken = cookie.replace(/[^;]*session_token=[^;]*;? ?/, "");
    expect(await client.emailOf(withoutToken)).toBeNull();
    // A read does not re-issue the cookies (better-auth refreshes a cache that is about to expire).
    const read = await fetch(`${site.app.url}/api/auth/get-session`, { headers: { cookie } });
    expect(read.headers.getSetCookie()).toEqual([]);

    // The form's checkbox sends "on".
    const form = await client.postForm("/sign-in", {
      email: "remember@example.com",
      password: PASSWORD,
      rememberMe: "on",
      redirectTo: "/account",
    });
    expect(form.status).toBe(303);
    for (const name of ["session_token", "session_data"]) {
      expect(setCookie(form, name)).toMatch(/Max-Age=604800/);
    }
    expect(form.headers.getSetCookie().join()).not.toMatch(/dont_remember=[^;]/);
  });

  it("a session re-issued by a password change keeps the choice (not remembered stays not remembered)", async () => {
    const cookie = await client.signIn("remember@example.com", PASSWORD);
    const changed = await client.postJson(
      "/api/auth/update-password-cms",
      { currentPassword: PASSWORD, password: "Changed-passw0rd!", passwordConfirmation: "Changed-passw0rd!" },
      cookie,
    );
    expect(changed.status, await changed.clone().text()).toBe(200);
    expect(setCookie(changed, "session_token")).not.toMatch(/Max-Age|Expires/i);
  });
});

describe("a new session after a privilege change (password change through the form)", () => {
  it("the old cookie no longer works, the new one does, with a new session id", async () => {
    await registerInCms("rotate@example.com");
    const before = await client.signIn("rotate@example.com", PASSWORD);
    const oldSession = await client.sessionOf(before);
    const changed = await client.postForm(
      "/account",
      { currentPassword: PASSWORD, password: "Rotated-passw0rd!", passwordConfirmation: "Rotated-passw0rd!" },
      before,
    );
    expect(changed.status, await changed.clone().text()).toBe(303);
    expect(changed.headers.get("location")).toBe("/account?changed=password");
    const after = client.cookieOf(changed);
    expect(await client.sessionOf(before)).toBeNull();
    const newSession = await client.sessionOf(after);
    expect(newSession?.user.email).toBe("rotate@example.com");
    expect(newSession?.session.id).not.toBe(oldSession?.session.id);
    const page = await fetch(`${site.app.url}/account?changed=password`, { headers: { cookie: after } });
    expect(await page.text()).toContain("Your password has been changed.");
  });
});

describe("sign out everywhere", () => {
  it("a cross-site POST of the form or the endpoint is refused and ends nothing", async () => {
    await registerInCms("everywhere@example.com");
    const cookie = await client.signIn("everywhere@example.com", PASSWORD);
    const fields = { intent: "sign-out-everywhere" };
    // A foreign Origin: React Router refuses the document POST itself (400) before any action runs.
    expect((await client.postForm("/account", fields, cookie, { origin: "https://evil.example" })).status).toBe(400);
    // What it lets through, the site's origin guard refuses (403): a foreign Referer, Sec-Fetch-Site.
    const referer = { origin: "", referer: "https://evil.example/page" };
    const fetchSite = { "sec-fetch-site": "cross-site" };
    for (const headers of [referer, fetchSite]) {
      const form = await client.postForm("/account", fields, cookie, headers);
      expect(form.status).toBe(403);
      expect(await form.text()).toContain("This form can only be sent from this site.");
      expect((await client.postJson("/api/auth/sign-out-everywhere-cms", {}, cookie, headers)).status).toBe(403);
    }
    const json = await client.postJson("/api/auth/sign-out-everywhere-cms", {}, cookie, {
      origin: "https://evil.example",
    });
    expect(json.status).toBe(403);
    expect(await client.emailOf(cookie)).toBe("everywhere@example.com");
  });

  it("ends every session of the user, this one too; other users keep theirs; signing in again works", async () => {
    await registerInCms("bystander@example.com");
    const laptop = await client.signIn("everywhere@example.com", PASSWORD);
    const phone = await client.signIn("everywhere@example.com", PASSWORD, { rememberMe: true });
    const bystander = await client.signIn("bystander@example.com", PASSWORD);

    const ended = await client.postForm("/account", { intent: "sign-out-everywhere" }, laptop);
    expect(ended.status).toBe(303);
    expect(ended.headers.get("location")).toBe("/sign-in");
    expect(ended.headers.getSetCookie().join()).toMatch(/session_token=; Max-Age=0/);

    expect(await client.emailOf(laptop)).toBeNull();
    expect(await client.emailOf(phone)).toBeNull();
    expect(await client.emailOf(bystander)).toBe("bystander@example.com");
    const page = await fetch(`${site.app.url}/account`, { headers: { cookie: phone }, redirect: "manual" });
    expect(page.status).toBe(302);
    expect(await client.emailOf(await client.signIn("everywhere@example.com", PASSWORD))).toBe(
      "everywhere@example.com",
    );
  });

  it("without a session: 401 from the endpoint, the sign-in page from the form", async () => {
    const json = await client.postJson("/api/auth/sign-out-everywhere-cms", {});
    expect(json.status).toBe(401);
    const form = await client.postForm("/account", { intent: "sign-out-everywhere" });
    expect(form.status).toBe(302);
    expect(form.headers.get("location")).toMatch(/^\/sign-in\?redirectTo=/);
  });
});

describe("blocked or deleted in the CMS: signed out at the next request", () => {
  it("an administrator blocks the user: the next request is signed out; unblocked, signing in works again", async () => {
    await registerInCms("blocked@example.com");
    const cookie = await client.signIn("blocked@example.com", PASSWORD);
    const admin = await StrapiAdmin.login(site.cms.url);
    await admin.setUserBlocked("blocked@example.com", true);
    const read = await fetch(`${site.app.url}/api/auth/get-session`, { headers: { cookie } });
    expect(await read.json()).toBeNull();
    expect(read.headers.getSetCookie().join()).toMatch(/session_token=; Max-Age=0/);
    await admin.setUserBlocked("blocked@example.com", false);
    expect(await client.emailOf(cookie)).toBeNull();
    expect(await client.emailOf(await client.signIn("blocked@example.com", PASSWORD))).toBe("blocked@example.com");
  });

  it("an administrator deletes the user: the next request is signed out", async () => {
    await registerInCms("deleted@example.com");
    const cookie = await client.signIn("deleted@example.com", PASSWORD);
    await (await StrapiAdmin.login(site.cms.url)).deleteUser("deleted@example.com");
    const page = await fetch(`${site.app.url}/account`, { headers: { cookie }, redirect: "manual" });
    expect(page.status).toBe(302);
    expect(page.headers.getSetCookie().join()).toMatch(/session_token=; Max-Age=0/);
  });
});

describe("a sign-out survives a restart of the site without Redis", () => {
  it(
    "the signed-out cookie replayed after the restart is refused; the user's other session is not ended",
    async () => {
      await registerInCms("restart@example.com");
      const signedOut = await client.signIn("restart@example.com", PASSWORD);
      const other = await client.signIn("restart@example.com", PASSWORD);
      const out = await client.postForm("/sign-out", {}, signedOut);
      expect(out.status).toBe(303);
      expect(await client.emailOf(signedOut)).toBeNull();

      await site.restartApp();
      expect(await client.emailOf(signedOut)).toBeNull();
      expect(await client.emailOf(other)).toBe("restart@example.com");
    },
    TIMEOUT,
  );
});

describe("account self-service: change the name", () => {
  it("the form changes the CMS username; the next read shows it; a taken name or bad input changes nothing", async () => {
    await registerInCms("renamer@example.com");
    await registerInCms("other-name@example.com");
    const cookie = await client.signIn("renamer@example.com", PASSWORD);
    const renamed = await client.postForm("/account", { intent: "change-username", username: "  Ren Amer " }, cookie);
    expect(renamed.status, await renamed.clone().text()).toBe(303);
    expect(renamed.headers.get("location")).toBe("/account?changed=username");
    const page = await fetch(`${site.app.url}/account?changed=username`, { headers: { cookie } });
    const html = await page.text();
    expect(html).toContain("Your name has been changed.");
    expect(html).toMatch(/data-testid="account-name"[^>]*>Ren Amer</);

    // Taken (in any case), too short, or an address (someone's email: Strapi signs in and registers
    // by email OR username, so it would take that address from its owner): refused, the name stays.
    const other = await client.signIn("other-name@example.com", PASSWORD);
    expect(
      (await client.postForm("/account", { intent: "change-username", username: "Taken Name" }, other)).status,
    ).toBe(303);
    const taken = await client.postForm("/account", { intent: "change-username", username: "TAKEN name" }, cookie);
    expect(taken.status).toBe(409);
    expect(await taken.text()).toContain("Someone else has this name: choose another.");
    const short = await client.postJson("/api/auth/change-username-cms", { username: "ab" }, cookie);
    expect(short.status).toBe(400);
    for (const address of ["OTHER-NAME@example.com", "victim@example.com"]) {
      const asAddress = await client.postJson("/api/auth/change-username-cms", { username: address }, cookie);
      expect(asAddress.status, address).toBe(400);
    }
    expect((await client.sessionOf(cookie))?.user).toMatchObject({ name: "Ren Amer" });
  });

  it("cross-site: refused (400 by React Router, 403 by the origin guard); signed out: 401", async () => {
    const cookie = await client.signIn("renamer@example.com", PASSWORD);
    const fields = { intent: "change-username", username: "Evil Name" };
    expect((await client.postForm("/account", fields, cookie, { origin: "https://evil.example" })).status).toBe(400);
    const referer = { origin: "", referer: "https://evil.example/page" };
    expect((await client.postForm("/account", fields, cookie, referer)).status).toBe(403);
    const json = await client.postJson("/api/auth/change-username-cms", { username: "Evil Name" }, cookie, referer);
    expect(json.status).toBe(403);
    expect((await client.postJson("/api/auth/change-username-cms", { username: "Evil Name" })).status).toBe(401);
    expect((await client.sessionOf(cookie))?.user).toMatchObject({ name: "Ren Amer" });
  });
});

describe("account self-service: delete the account", () => {
  it("a wrong or missing password changes nothing; the right one deletes the CMS user and ends every session", async () => {
    await registerInCms("leaver@example.com");
    const cookie = await client.signIn("leaver@example.com", PASSWORD);
    const otherDevice = await client.signIn("leaver@example.com", PASSWORD);
    for (const currentPassword of ["Wrong-passw0rd!", ""]) {
      const refused = await client.postForm("/account", { intent: "delete-account", currentPassword }, cookie);
      expect(refused.status).toBe(400);
      expect(await refused.text()).toContain("This is not your current password.");
    }
    expect(await client.emailOf(cookie)).toBe("leaver@example.com");

    const deleted = await client.postForm("/account", { intent: "delete-account", currentPassword: PASSWORD }, cookie);
    expect(deleted.status).toBe(303);
    expect(deleted.headers.get("location")).toBe("/");
    expect(deleted.headers.getSetCookie().join()).toMatch(/session_token=; Max-Age=0/);
    expect(await client.emailOf(cookie)).toBeNull();
    expect(await client.emailOf(otherDevice)).toBeNull();
    const signIn = await client.postJson("/api/auth/sign-in-cms", { email: "leaver@example.com", password: PASSWORD });
    expect(signIn.status).toBe(401);
  });

  it("an account without a password (made by an OAuth sign-in): a fresh sign-in deletes it and its provider link", async () => {
    const sync = async () => {
      const response = await fetch(`${site.cms.url}/api/oauth-sync`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${SYNC_SECRET}` },
        body: JSON.stringify({
          provider: "github",
          subject: "gh-42",
          email: "oauth-leaver@example.com",
          emailVerified: true,
        }),
      });
      expect(response.status, await response.clone().text()).toBeLessThan(300);
      return (await response.json()) as { jwt: string; created: boolean };
    };
    const first = await sync();
    expect(first.created).toBe(true);
    const deleted = await fetch(`${site.cms.url}/api/account-sessions/delete-account`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${first.jwt}` },
      body: "{}",
    });
    expect(deleted.status, await deleted.clone().text()).toBe(200);
    const me = await fetch(`${site.cms.url}/api/users/me`, { headers: { authorization: `Bearer ${first.jwt}` } });
    expect(me.status).toBe(401);
    // The provider link went with the user: the next sign-in with that provider account starts afresh.
    expect((await sync()).created).toBe(true);
  });

  it("cross-site: refused and nothing deleted; signed out: 401", async () => {
    await registerInCms("stayer@example.com");
    const cookie = await client.signIn("stayer@example.com", PASSWORD);
    const fields = { intent: "delete-account", currentPassword: PASSWORD };
    expect((await client.postForm("/account", fields, cookie, { origin: "https://evil.example" })).status).toBe(400);
    const fetchSite = { "sec-fetch-site": "cross-site" };
    expect((await client.postForm("/account", fields, cookie, fetchSite)).status).toBe(403);
    const json = await client.postJson(
      "/api/auth/delete-account-cms",
      { currentPassword: PASSWORD },
      cookie,
      fetchSite,
    );
    expect(json.status).toBe(403);
    expect((await client.postJson("/api/auth/delete-account-cms", { currentPassword: PASSWORD })).status).toBe(401);
    expect(await client.emailOf(cookie)).toBe("stayer@example.com");
  });
});
