import path from "node:path";

import { describe, expect, it } from "vitest";

import { waitForMail } from "../support/cms-mail.ts";
import { SITE_SECRET_HEADERS } from "../support/site-secret.ts";
import { siteSession } from "../support/site-session.ts";
import { StrapiAdmin } from "../support/strapi-admin.ts";
import { strapiSite } from "../support/strapi-site.ts";

/**
 * The attack: someone holds a copy of a victim's session cookie (or of a CMS JWT). The
 * victim changes or resets the password. Before the fix the copy stayed signed in until the
 * cookie expired (7 days), and the CMS JWT in it stayed valid for 30 days.
 * Now sessions are Strapi's own (users-permissions refresh mode, rows in the CMS's database): a
 * password change or reset ends every session of the user and answers a new one, and the CMS
 * refuses an ended session's JWT at once (decision 0025); the site signs such a session out.
 * Real Strapi and the production build of the site.
 */

const TIMEOUT = 240_000;
const site = strapiSite("auth-password-sessions", {
  cmsEnv: (dir) => ({ CMS_MAIL_DIR: path.join(dir, "mail") }),
  appEnv: { CMS_FETCH_TIMEOUT_MS: "5000", AUTH_RATE_LIMIT_MAX: "1000" },
});
const mailDir = path.join(site.dir, "mail");

type Json = Record<string, any>;

async function postSite(apiPath: string, body: unknown, cookie = "") {
  return fetch(`${site.app.url}${apiPath}`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: site.app.url, ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });
}

async function postCms(apiPath: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${site.cms.url}${apiPath}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...SITE_SECRET_HEADERS, ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Json };
}

/** The Cookie header a browser sends after these Set-Cookie headers (the last of each name wins). */
const cookieOf = (response: Response) => siteSession(() => site.app.url).cookieOf(response);

async function signIn(email: string, password: string): Promise<string> {
  const response = await postSite("/api/auth/sign-in-cms", { email, password });
  expect(response.status, await response.clone().text()).toBe(200);
  return cookieOf(response);
}

/** Who the site thinks is signed in with this cookie (null: signed out). */
async function sessionEmail(cookie: string): Promise<string | null> {
  const response = await fetch(`${site.app.url}/api/auth/get-session`, { headers: { cookie } });
  const body = (await response.json()) as { user?: { email: string } } | null;
  return body?.user?.email ?? null;
}

async function cmsMe(jwt: string) {
  const response = await fetch(`${site.cms.url}/api/users/me`, { headers: { authorization: `Bearer ${jwt}` } });
  return { status: response.status, body: (await response.json()) as Json };
}

async function registerInCms(email: string, password: string) {
  const registered = await postCms("/api/auth/local/register", { username: email, email, password });
  expect(registered.status, JSON.stringify(registered.body)).toBe(200);
  return registered.body as { jwt: string; user: { id: number } };
}

describe("a password change or reset ends the other sessions (real Strapi)", () => {
  const email = "victim@example.com";
  let victim = "";
  let copy = "";
  let oldJwt = "";

  it("password change: copied cookie, other device's session, older CMS JWTs refused; changer's stays", async () => {
    await registerInCms(email, "Old-passw0rd!");
    victim = await signIn(email, "Old-passw0rd!");
    copy = victim; // what the attacker holds
    const otherDevice = await signIn(email, "Old-passw0rd!");
    oldJwt = (await postCms("/api/auth/local", { identifier: email, password: "Old-passw0rd!" })).body.jwt as string;
    expect(await sessionEmail(copy)).toBe(email);
    expect((await cmsMe(oldJwt)).status).toBe(200);

    const changed = await postSite(
      "/api/auth/update-password-cms",
      { currentPassword: "Old-passw0rd!", password: "New-passw0rd!", passwordConfirmation: "New-passw0rd!" },
      victim,
    );
    expect(changed.status, await changed.clone().text()).toBe(200);
    victim = cookieOf(changed);

    // The copy: signed out, its cookies expired.
    const refused = await fetch(`${site.app.url}/api/auth/get-session`, { headers: { cookie: copy } });
    expect(await refused.json()).toBeNull();
    expect(refused.headers.getSetCookie().join()).toMatch(/better-auth\.session_token=; Max-Age=0/);
    const account = await fetch(`${site.app.url}/account`, { headers: { cookie: copy }, redirect: "manual" });
    expect(account.status).toBe(302);
    expect(await sessionEmail(otherDevice)).toBeNull();
    // The CMS itself refuses the old JWT, not only the site.
    expect((await cmsMe(oldJwt)).status).toBe(401);

    // The session that changed the password goes on; new sign-ins work.
    expect(await sessionEmail(victim)).toBe(email);
    expect(await sessionEmail(await signIn(email, "New-passw0rd!"))).toBe(email);
  });

  it(
    "still so after a restart of the CMS (sessions are stored in its database); the changer's session survives it",
    async () => {
      await site.restartCms();
      expect(await sessionEmail(copy)).toBeNull();
      expect((await cmsMe(oldJwt)).status).toBe(401);
      expect(await sessionEmail(victim)).toBe(email);
    },
    TIMEOUT,
  );

  it("reset password: every session from before the reset is refused; the reset's own session works", async () => {
    const before = Date.now();
    expect((await postSite("/api/auth/forgot-password-cms", { email })).status).toBe(200);
    const mail = await waitForMail(mailDir, email, { after: before });
    const code = new URL(mail.resetLink!).searchParams.get("code");
    const reset = await postSite("/api/auth/reset-password-cms", {
      code,
      password: "Third-passw0rd!",
      passwordConfirmation: "Third-passw0rd!",
    });
    expect(reset.status, await reset.clone().text()).toBe(200);
    expect(await sessionEmail(victim)).toBeNull();
    expect(await sessionEmail(cookieOf(reset))).toBe(email);
  });

  it("an administrator setting a password in the admin panel ends the sessions too", async () => {
    const cookie = await signIn(email, "Third-passw0rd!");
    const admin = await StrapiAdmin.login(site.cms.url);
    const uid = "plugin::users-permissions.user";
    const query = new URLSearchParams({ "filters[$and][0][email][$eq]": email });
    const { results } = (await admin.call("GET", `/content-manager/collection-types/${uid}?${query}`)) as {
      results: Array<{ documentId: string }>;
    };
    await admin.call("PUT", `/content-manager/collection-types/${uid}/${results[0]!.documentId}`, {
      password: "Admin-set-passw0rd!",
    });
    expect(await sessionEmail(cookie)).toBeNull();
  });

  it("a client that may update users can neither revive an ended session nor end one by what it writes", async () => {
    const other = "setter@example.com";
    const { user } = await registerInCms(other, "Setter-passw0rd!");
    const before = (await postCms("/api/auth/local", { identifier: other, password: "Setter-passw0rd!" })).body
      .jwt as string;
    const changed = await postCms(
      "/api/auth/change-password",
      {
        currentPassword: "Setter-passw0rd!",
        password: "Setter-passw0rd-2!",
        passwordConfirmation: "Setter-passw0rd-2!",
      },
      { authorization: `Bearer ${before}` },
    );
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    const current = changed.body.jwt as string;
    expect((await cmsMe(before)).status).toBe(401);
    expect((await cmsMe(current)).status).toBe(200);

    // The user's own JWT may not update users at all.
    const own = await fetch(`${site.cms.url}/api/users/${user.id}`, {
      method: "PUT",
      headers: { "content-type": "application/json", authorization: `Bearer ${current}` },
      body: JSON.stringify({ username: "setter-own" }),
    });
    expect(own.status).toBe(403);

    // A full-access API token may (PUT /api/users/:id hands its body to the database as it is):
    // the former fields mean nothing any more, and an ordinary write ends no session.
    const admin = await StrapiAdmin.login(site.cms.url);
    const { data: token } = (await admin.call("POST", "/admin/api-tokens", {
      name: "session-writes-test",
      type: "full-access",
      lifespan: null,
    })) as { data: { accessKey: string } };
    const put = (body: Json) =>
      fetch(`${site.cms.url}/api/users/${user.id}`, {
        method: "PUT",
        headers: { "content-type": "application/json", authorization: `Bearer ${token.accessKey}` },
        body: JSON.stringify(body),
      });
    for (const value of [null, "1970-01-01T00:00:00.000Z"]) {
      const answer = await put({
        sessionsValidAfter: value,
        revokedTokens: [],
        username: `setter-${value ?? "x"}`.slice(0, 12),
      });
      expect(answer.status, await answer.clone().text()).toBeLessThan(500);
      expect((await cmsMe(before)).status).toBe(401);
      expect((await cmsMe(current)).status).toBe(200);
    }
    // A password it sets ends every session, as an admin's does.
    expect((await put({ password: "Token-set-passw0rd!" })).status).toBe(200);
    expect((await cmsMe(current)).status).toBe(401);
  });
});
