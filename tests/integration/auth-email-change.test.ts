import { randomBytes } from "node:crypto";

import getPort from "../support/free-port.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { oauthSyncInCms, registerCmsUser, runOnCmsDatabase } from "../support/cms-accounts.ts";
import { SITE_SECRET_HEADERS } from "../support/site-secret.ts";
import { siteSession } from "../support/site-session.ts";
import { mailHeader, mailText, startFakeSmtp, type FakeSmtp, type SmtpMessage } from "../support/smtp-server.ts";
import { strapiSite } from "../support/strapi-site.ts";

/**
 * The change of email (issue 15, point 2) through the real Strapi, a real SMTP server and the
 * production site without Redis: the link goes to the new address, the old one is told, nothing
 * changes until the link's button is pressed; then the email changes, every other session ends
 * and the confirming browser gets a new session. A taken address gets the same answer. Bad input,
 * expired, reused and unknown tokens change nothing. Also: an OAuth-only account's "recent
 * sign-in" is the provider's (authAt), which a re-sync cannot refresh; wrong current passwords on
 * the account page count per account.
 */

const SYNC_SECRET = "email-change-sync-secret-0123456789abcdef";
const PASSWORD = "Email-change-1";
let smtp: FakeSmtp;

beforeAll(async () => {
  smtp = await startFakeSmtp(await getPort());
});
afterAll(() => smtp?.stop());

const site = strapiSite("auth-email-change", {
  cmsEnv: () => ({
    SMTP_HOST: "127.0.0.1",
    SMTP_PORT: String(smtp.port),
    EMAIL_FROM: "Acme Test <accounts@acme.test>",
    SITE_NAME: "Acme Test",
    CMS_OAUTH_SYNC_SECRET: SYNC_SECRET,
  }),
  appEnv: { AUTH_RATE_LIMIT_MAX: "1000" },
});
const client = siteSession(() => site.app.url);
const register = (email: string) => registerCmsUser(site.cms.url, email, PASSWORD);

/** The newest message to `email` among those after index `after`, waiting for it. */
async function mailTo(email: string, after: number): Promise<SmtpMessage> {
  await expect
    .poll(() => smtp.messages.slice(after).filter((m) => m.to.includes(email)).length, { timeout: 15_000 })
    .toBeGreaterThan(0);
  return smtp.messages.slice(after).findLast((m) => m.to.includes(email))!;
}

const linkIn = (message: SmtpMessage) =>
  /https?:\/\/[^\s"'<>]+\/confirm-email-change\?token=[0-9a-f]{64}/.exec(mailText(message))?.[0];

/** Asks for a change through the /account form; returns the link mailed to the new address. */
async function requestChange(cookie: string, email: string): Promise<string> {
  const sent = smtp.messages.length;
  const asked = await client.postForm("/account", { intent: "change-email", email, currentPassword: PASSWORD }, cookie);
  expect(asked.status, await asked.clone().text()).toBe(303);
  expect(asked.headers.get("location")).toBe("/account?changed=email-requested");
  const link = linkIn(await mailTo(email.toLowerCase(), sent));
  expect(link).toBeDefined();
  return link!;
}

const tokenOf = (link: string) => new URL(link).searchParams.get("token")!;
const confirm = (token: string, cookie = "", headers: Record<string, string> = {}) =>
  client.postForm("/confirm-email-change", { token }, cookie, headers);
const signInStatus = async (email: string) =>
  (await client.postJson("/api/auth/sign-in-cms", { email, password: PASSWORD })).status;

describe("change of email", () => {
  it("the new address confirms it: the old one is told, the email changes, every other session ends, this browser gets a new session", async () => {
    await register("mover@example.com");
    const browser = await client.signIn("mover@example.com", PASSWORD);
    const phone = await client.signIn("mover@example.com", PASSWORD);
    const before = await client.sessionOf(browser);
    const sent = smtp.messages.length;
    const link = await requestChange(browser, "Moved@Example.com");

    expect(link.startsWith(`${site.app.url}/confirm-email-change?token=`)).toBe(true);
    const toNew = await mailTo("moved@example.com", sent);
    expect(mailHeader(toNew, "from")).toContain("accounts@acme.test");
    const toOld = await mailTo("mover@example.com", sent);
    expect(linkIn(toOld)).toBeUndefined();
    expect(mailText(toOld)).not.toContain("token=");
    expect(mailText(toOld)).toContain("moved@example.com");
    const page = await fetch(`${site.app.url}/account?changed=email-requested`, { headers: { cookie: browser } });
    expect(await page.text()).toContain("if it can be used, we have sent it a link");

    // Opening the link changes nothing: the page shows a button.
    const opened = await fetch(link, { headers: { cookie: browser } });
    expect(opened.status).toBe(200);
    expect(await opened.text()).toContain("Confirm the new address");
    expect(await client.emailOf(browser)).toBe("mover@example.com");
    expect(await signInStatus("moved@example.com")).toBe(401);

    const confirmed = await confirm(tokenOf(link), browser);
    expect(confirmed.status, await confirmed.clone().text()).toBe(303);
    expect(confirmed.headers.get("location")).toBe("/account?changed=email");
    const renewed = client.cookieOf(confirmed);
    const after = await client.sessionOf(renewed);
    expect(after?.user.email).toBe("moved@example.com");
    expect(after?.session.id).not.toBe(before?.session.id);
    expect(await client.emailOf(browser)).toBeNull();
    expect(await client.emailOf(phone)).toBeNull();
    const account = await (
      await fetch(`${site.app.url}/account?changed=email`, { headers: { cookie: renewed } })
    ).text();
    expect(account).toContain("Your email address has been changed.");
    expect(account).toMatch(/data-testid="account-email"[^>]*>moved@example\.com</);

    // The old address no longer opens the account (not even as the username it was); the new one does.
    expect(await signInStatus("mover@example.com")).toBe(401);
    expect(await signInStatus("moved@example.com")).toBe(200);

    // The link works once.
    const again = await confirm(tokenOf(link));
    expect(again.status).toBe(400);
    expect(await again.text()).toContain("This link is invalid or was already used. Nothing was changed.");
  });

  it("confirmed in a browser that is not signed in: the email changes and every session ends; no session is started", async () => {
    await register("elsewhere@example.com");
    const cookie = await client.signIn("elsewhere@example.com", PASSWORD);
    const link = await requestChange(cookie, "elsewhere-new@example.com");
    const confirmed = await confirm(tokenOf(link));
    expect(confirmed.status).toBe(200);
    expect(confirmed.headers.getSetCookie().join()).not.toMatch(/session_token=[^;]/);
    expect(await confirmed.text()).toContain("email address is now elsewhere-new@example.com");
    expect(await client.emailOf(cookie)).toBeNull();
    expect(await signInStatus("elsewhere-new@example.com")).toBe(200);
  });

  it("a reset link mailed to the old address before the change opens nothing after it", async () => {
    // The owner moves the account away from a mailbox someone else reads (finding 22 in docs/security.md).
    await register("leaky@example.com");
    const cookie = await client.signIn("leaky@example.com", PASSWORD);
    const sent = smtp.messages.length;
    expect((await client.postJson("/api/auth/forgot-password-cms", { email: "leaky@example.com" })).status).toBe(200);
    const code = /\/reset-password\?code=([A-Za-z0-9]+)/.exec(mailText(await mailTo("leaky@example.com", sent)))?.[1];
    expect(code).toBeDefined();
    const link = await requestChange(cookie, "safe@example.com");
    expect((await confirm(tokenOf(link), cookie)).status).toBe(303);
    const taken = "Taken-over-1";
    const reset = await fetch(`${site.cms.url}/api/auth/reset-password`, {
      method: "POST",
      headers: { "content-type": "application/json", ...SITE_SECRET_HEADERS },
      body: JSON.stringify({ code, password: taken, passwordConfirmation: taken }),
    });
    expect(reset.status).toBe(400);
    expect(await signInStatus("safe@example.com")).toBe(200);
  });

  it("signing out everywhere after the request, as the old address's mail advises, ends its link", async () => {
    // A thief with the session and the password asks for their own address; the owner, told at the
    // old address, signs out everywhere. The link must not move the account after that (finding 23).
    await register("robbed@example.com");
    const thief = await client.signIn("robbed@example.com", PASSWORD);
    const link = await requestChange(thief, "thief@example.com");
    const owner = await client.signIn("robbed@example.com", PASSWORD);
    const ended = await client.postForm("/account", { intent: "sign-out-everywhere" }, owner);
    expect(ended.status, await ended.clone().text()).toBe(303);
    const confirmed = await confirm(tokenOf(link));
    expect(confirmed.status).toBe(400);
    expect(await confirmed.text()).toContain("This link is invalid or was already used. Nothing was changed.");
    expect(await signInStatus("robbed@example.com")).toBe(200);
    expect(await signInStatus("thief@example.com")).toBe(401);
  });

  it("asked on the German account page: the link opens the German confirm page, which confirms", async () => {
    await register("deutsch@example.com");
    const cookie = await client.signIn("deutsch@example.com", PASSWORD);
    const sent = smtp.messages.length;
    const fields = { intent: "change-email", email: "deutsch-neu@example.com", currentPassword: PASSWORD };
    const asked = await client.postForm("/de/account", fields, cookie);
    expect(asked.status).toBe(303);
    expect(asked.headers.get("location")).toBe("/de/account?changed=email-requested");
    const link = linkIn(await mailTo("deutsch-neu@example.com", sent))!;
    expect(link.startsWith(`${site.app.url}/de/confirm-email-change?token=`)).toBe(true);
    expect(await (await fetch(link)).text()).toContain("Neue E-Mail-Adresse bestätigen");
    const refused = await client.postForm("/de/confirm-email-change", { token: "0".repeat(64) });
    expect(await refused.text()).toContain("Dieser Link ist ungültig oder wurde schon benutzt.");
    const confirmed = await client.postForm("/de/confirm-email-change", { token: tokenOf(link) }, cookie);
    expect(confirmed.headers.get("location")).toBe("/de/account?changed=email");
    const page = await fetch(`${site.app.url}/de/account?changed=email`, {
      headers: { cookie: client.cookieOf(confirmed) },
    });
    expect(await page.text()).toContain("Ihre E-Mail-Adresse wurde geändert.");
  });

  it("a taken address gets the same answer; its owner is told someone tried; nothing changes", async () => {
    await register("keeper@example.com");
    await register("taker@example.com");
    const cookie = await client.signIn("taker@example.com", PASSWORD);
    const ask = (email: string) =>
      client.postJson("/api/auth/request-email-change-cms", { email, currentPassword: PASSWORD }, cookie);
    const sent = smtp.messages.length;
    const free = await ask("free-address@example.com");
    const taken = await ask("KEEPER@example.com");
    expect(taken.status).toBe(free.status);
    expect(await taken.json()).toEqual(await free.json());

    const toOwner = await mailTo("keeper@example.com", sent);
    expect(linkIn(toOwner)).toBeUndefined();
    expect(mailText(toOwner)).toContain("already belongs to an account, so nothing was changed");
    // The old address is told about both requests alike.
    await expect.poll(() => smtp.messages.slice(sent).filter((m) => m.to.includes("taker@example.com")).length).toBe(2);
    expect(await client.emailOf(cookie)).toBe("taker@example.com");
    expect(await signInStatus("keeper@example.com")).toBe(200);
  });

  it("the new address taken between the request and the link: 409, nothing changes", async () => {
    await register("slow@example.com");
    const cookie = await client.signIn("slow@example.com", PASSWORD);
    const link = await requestChange(cookie, "grabbed@example.com");
    await register("grabbed@example.com");
    const refused = await confirm(tokenOf(link), cookie);
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain("This address now belongs to another account, so nothing was changed.");
    expect(await client.emailOf(cookie)).toBe("slow@example.com");
  });

  it("an expired link says so and changes nothing, then counts as used; unknown tokens are refused", async () => {
    await register("late@example.com");
    const cookie = await client.signIn("late@example.com", PASSWORD);
    const link = await requestChange(cookie, "late-new@example.com");
    // An hour passes (the expiry moved into the past, straight in the CMS's database).
    runOnCmsDatabase(
      site.cms.dbFile,
      "UPDATE up_users SET email_change_expires_at = ? WHERE email = ?",
      0,
      "late@example.com",
    );
    const expired = await confirm(tokenOf(link), cookie);
    expect(expired.status).toBe(400);
    expect(await expired.text()).toContain("This link has expired (it works for an hour). Nothing was changed.");
    expect((await confirm(tokenOf(link), cookie)).status).toBe(400);
    expect(await client.emailOf(cookie)).toBe("late@example.com");
    expect(await signInStatus("late-new@example.com")).toBe(401);

    for (const token of [randomBytes(32).toString("hex"), "abc", "x".repeat(600)]) {
      const refused = await client.postJson("/api/auth/confirm-email-change-cms", { token });
      expect(refused.status, token).toBe(400);
      expect(((await refused.json()) as { code: string }).code).toMatch(/^(EMAIL_CHANGE_INVALID|INVALID_INPUT)$/);
    }
    const page = await (await fetch(`${site.app.url}/confirm-email-change`)).text();
    expect(page).toContain("This link is incomplete.");
  });

  it("bad input changes nothing and mails nothing: wrong or missing password, the same address, not an address", async () => {
    await register("careful@example.com");
    const cookie = await client.signIn("careful@example.com", PASSWORD);
    const sent = smtp.messages.length;
    const form = (fields: Record<string, string>) =>
      client.postForm("/account", { intent: "change-email", ...fields }, cookie);

    for (const currentPassword of ["Wrong-passw0rd!", ""]) {
      const refused = await form({ email: "never@example.com", currentPassword });
      expect(refused.status).toBe(400);
      expect(await refused.text()).toContain("This is not your current password.");
    }
    const same = await form({ email: "CAREFUL@example.com", currentPassword: PASSWORD });
    expect(same.status).toBe(400);
    expect(await same.text()).toContain("Enter a different address from the one you have.");
    const notAnAddress = await form({ email: "not-an-address", currentPassword: PASSWORD });
    expect(notAnAddress.status).toBe(400);
    expect(await notAnAddress.text()).toContain("Enter a valid email address");

    // A good request afterwards: its mails arrive, and none went to the refused addresses.
    await requestChange(cookie, "later@example.com");
    expect(smtp.messages.slice(sent).some((m) => m.to.includes("never@example.com"))).toBe(false);
    expect(await client.emailOf(cookie)).toBe("careful@example.com");
  });

  it("cross-site posts of both forms are refused and change nothing; signed out: 401", async () => {
    await register("guarded@example.com");
    const cookie = await client.signIn("guarded@example.com", PASSWORD);
    const fields = { intent: "change-email", email: "evil-target@example.com", currentPassword: PASSWORD };
    const referer = { origin: "", referer: "https://evil.example/page" };
    const fetchSite = { "sec-fetch-site": "cross-site" };
    const sent = smtp.messages.length;
    // A foreign Origin: React Router refuses the document POST (400); the rest our origin guard (403).
    expect((await client.postForm("/account", fields, cookie, { origin: "https://evil.example" })).status).toBe(400);
    for (const headers of [referer, fetchSite]) {
      const refused = await client.postForm("/account", fields, cookie, headers);
      expect(refused.status).toBe(403);
      expect(await refused.text()).toContain("This form can only be sent from this site.");
      const json = await client.postJson("/api/auth/request-email-change-cms", fields, cookie, headers);
      expect(json.status).toBe(403);
    }
    expect((await client.postJson("/api/auth/request-email-change-cms", fields)).status).toBe(401);

    // The confirm page's button: refused cross-site; the token still works from the site.
    const link = await requestChange(cookie, "guarded-new@example.com");
    expect(smtp.messages.slice(sent).some((m) => m.to.includes("evil-target@example.com"))).toBe(false);
    expect((await confirm(tokenOf(link), cookie, { origin: "https://evil.example" })).status).toBe(400);
    for (const headers of [referer, fetchSite]) {
      expect((await confirm(tokenOf(link), cookie, headers)).status).toBe(403);
      const json = await client.postJson(
        "/api/auth/confirm-email-change-cms",
        { token: tokenOf(link) },
        cookie,
        headers,
      );
      expect(json.status).toBe(403);
    }
    expect(await client.emailOf(cookie)).toBe("guarded@example.com");
    expect((await confirm(tokenOf(link), cookie)).status).toBe(303);
  });
});

describe("OAuth-only accounts: the recent sign-in is the provider's (authAt)", () => {
  const identity = { provider: "github", subject: "gh-fresh", email: "fresh@example.com", emailVerified: true };
  const cmsPost = (path: string, jwt: string, body: unknown) =>
    fetch(`${site.cms.url}/api/account-sessions/${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${jwt}` },
      body: JSON.stringify(body),
    });
  const codeOf = async (response: Response) =>
    ((await response.json()) as { error?: { details?: { code?: string } } }).error?.details?.code;

  it("a re-sync carries the old sign-in time, so sync-then-delete is refused; the callback's sync is fresh", async () => {
    const callback = await oauthSyncInCms(site.cms.url, SYNC_SECRET, identity);
    expect(callback.authAt).toBeGreaterThan(Date.now() - 60_000);
    // The attack: a session whose provider sign-in is old re-syncs for a new JWT, then deletes.
    const tenMinutesAgo = Date.now() - 10 * 60_000;
    const resynced = await oauthSyncInCms(site.cms.url, SYNC_SECRET, {
      ...identity,
      refresh: true,
      authAt: tenMinutesAgo,
    });
    expect(resynced.authAt).toBe(tenMinutesAgo);
    const noTime = await oauthSyncInCms(site.cms.url, SYNC_SECRET, { ...identity, refresh: true });
    for (const jwt of [resynced.jwt, noTime.jwt]) {
      const deleted = await cmsPost("delete-account", jwt, {});
      expect(deleted.status).toBe(400);
      expect(await codeOf(deleted)).toBe("SIGN_IN_AGAIN");
      const changed = await cmsPost("email-change", jwt, { email: "fresh-new@example.com" });
      expect(changed.status).toBe(400);
      expect(await codeOf(changed)).toBe("SIGN_IN_AGAIN");
    }
    // Straight after the provider: the email change and the deletion need no password.
    const sent = smtp.messages.length;
    expect((await cmsPost("email-change", callback.jwt, { email: "fresh-new@example.com" })).status).toBe(200);
    expect(linkIn(await mailTo("fresh-new@example.com", sent))).toBeDefined();
    expect((await cmsPost("delete-account", callback.jwt, {})).status).toBe(200);
  });
});

describe("the CMS routes on their own", () => {
  const post = (path: string, body: unknown, jwt?: string) =>
    fetch(`${site.cms.url}/api/account-sessions/${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(jwt ? { authorization: `Bearer ${jwt}` } : {}) },
      body: JSON.stringify(body),
    });
  const answer = async (response: Response) => ({
    status: response.status,
    code: ((await response.json()) as { error?: { details?: { code?: string } } }).error?.details?.code,
  });

  it("a request needs the user's JWT and an address; a confirmation needs a well-formed, known token", async () => {
    // Without a JWT the Public role asks, which lacks the action: Strapi's 403; a bad JWT: 401.
    expect((await post("email-change", { email: "a-new@example.com" })).status).toBe(403);
    expect((await post("email-change", { email: "a-new@example.com" }, "not-a-jwt")).status).toBe(401);
    await register("direct@example.com");
    const { jwt } = (await (
      await fetch(`${site.cms.url}/api/auth/local`, {
        method: "POST",
        headers: { "content-type": "application/json", ...SITE_SECRET_HEADERS },
        body: JSON.stringify({ identifier: "direct@example.com", password: PASSWORD }),
      })
    ).json()) as { jwt: string };
    for (const email of [5, "", "no-at-sign", null, "a@b"]) {
      expect(await answer(await post("email-change", { email, password: PASSWORD }, jwt))).toEqual({
        status: 400,
        code: "INVALID_EMAIL",
      });
    }
    for (const body of [{}, { token: 5 }, { token: "g".repeat(64) }, { token: "0".repeat(64) }]) {
      expect(await answer(await post("email-change/confirm", body))).toEqual({ status: 400, code: "INVALID_TOKEN" });
    }
  });
});

describe("wrong current passwords on the account page count per account", () => {
  it("five lock the account's password forms (429 even with the right one); sign-in and other accounts are not affected", async () => {
    await register("guessed@example.com");
    await register("neighbour@example.com");
    const cookie = await client.signIn("guessed@example.com", PASSWORD);
    const wrong = "Wrong-passw0rd!";
    for (let i = 0; i < 3; i += 1) {
      const changed = await client.postJson(
        "/api/auth/update-password-cms",
        { currentPassword: wrong, password: "Another-pass-1", passwordConfirmation: "Another-pass-1" },
        cookie,
      );
      expect(changed.status).toBe(400);
    }
    expect((await client.postJson("/api/auth/delete-account-cms", { currentPassword: wrong }, cookie)).status).toBe(
      400,
    );
    const fifth = { intent: "change-email", email: "x-guessed@example.com", currentPassword: wrong };
    expect((await client.postForm("/account", fifth, cookie)).status).toBe(400);

    const locked = await client.postJson("/api/auth/delete-account-cms", { currentPassword: PASSWORD }, cookie);
    expect(locked.status).toBe(429);
    expect(((await locked.json()) as { code: string }).code).toBe("RATE_LIMITED");
    const form = await client.postForm("/account", { intent: "delete-account", currentPassword: PASSWORD }, cookie);
    expect(form.status).toBe(429);
    expect(await form.text()).toContain("Too many attempts.");
    expect(await client.emailOf(cookie)).toBe("guessed@example.com");
    expect(await signInStatus("guessed@example.com")).toBe(200);

    const neighbour = await client.signIn("neighbour@example.com", PASSWORD);
    const other = await client.postJson("/api/auth/delete-account-cms", { currentPassword: wrong }, neighbour);
    expect(other.status).toBe(400);
  });
});
