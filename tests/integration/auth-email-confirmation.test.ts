import getPort from "../support/free-port.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { StrapiAdmin } from "../support/strapi-admin.ts";
import { postAuthForm } from "../support/auth-form.ts";
import { mailHeader, mailText, startFakeSmtp, type FakeSmtp, type SmtpMessage } from "../support/smtp-server.ts";
import { signInToSite } from "../support/site-requests.ts";
import { SITE_SECRET_HEADERS } from "../support/site-secret.ts";
import { strapiSite } from "../support/strapi-site.ts";

/**
 * Email confirmation (issue 15.1) and the CMS's account mails (15.7), with the real Strapi, the
 * production site and a real SMTP server: CMS_EMAIL_CONFIRMATION=true; the mail comes from the
 * site's name and host and links to the site's /confirm-email, whose POST confirms; sign-in before
 * that says so; a used link is refused; a new link is asked for without telling whether the address
 * exists. The settings an admin changes survive a restart unless a variable sets them; two OAuth
 * syncs for one new email at once make one user.
 */

const TIMEOUT = 240_000;
const SYNC_SECRET = "a-test-oauth-sync-secret-of-at-least-32-chars";
let smtp: FakeSmtp;

beforeAll(async () => {
  smtp = await startFakeSmtp(await getPort());
});
afterAll(() => smtp?.stop());

const site = strapiSite("auth-email-confirmation", {
  cmsEnv: () => ({
    SMTP_HOST: "127.0.0.1",
    SMTP_PORT: String(smtp.port),
    CMS_EMAIL_CONFIRMATION: "true",
    SITE_NAME: "Acme Test",
    CMS_OAUTH_SYNC_SECRET: SYNC_SECRET,
  }),
  appEnv: { AUTH_RATE_LIMIT_MAX: "1000" },
});

async function formPost(path: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  const response = await postAuthForm(site.app.url, path, fields, headers);
  return { status: response.status, html: await response.text() };
}

const signIn = (email: string, password: string) => signInToSite(site.app.url, email, password);

/** The newest message to `email`, waiting for it. */
async function mailTo(email: string, after: number): Promise<SmtpMessage> {
  await expect
    .poll(() => smtp.messages.slice(after).filter((m) => m.to.includes(email)).length, { timeout: 15_000 })
    .toBeGreaterThan(0);
  return smtp.messages.slice(after).findLast((m) => m.to.includes(email))!;
}

const linkIn = (message: SmtpMessage) =>
  /https?:\/\/[^\s"'<>]+\/confirm-email\?confirmation=[0-9a-f]+/.exec(mailText(message))?.[0];

describe("email confirmation (real Strapi, SMTP)", () => {
  const email = "confirm-me@example.com";
  const password = "Confirm-passw0rd!";

  it("register → 'check your inbox' → mail in the site's name, linking to it → confirm → sign in", async () => {
    const before = smtp.messages.length;
    const registered = await formPost("/register", { email, password, passwordConfirmation: password });
    expect(registered.status).toBe(200);
    expect(registered.html).toMatch(/Check your inbox/);

    const mail = await mailTo(email, before);
    const host = new URL(site.app.url).hostname;
    expect(mailHeader(mail, "From")).toMatch(new RegExp(`^"?Acme Test"? <no-reply@${host.replace(/\./g, "\\.")}>$`));
    const link = linkIn(mail);
    expect(link).toMatch(new RegExp(`^${site.app.url}/confirm-email\\?confirmation=[0-9a-f]{40}$`));
    expect(mailText(mail)).not.toContain(site.cms.url);

    // Before confirming: sign-in says so (the password is right).
    const early = await signIn(email, password);
    expect(early.status).toBe(403);
    expect(early.body.code).toBe("EMAIL_NOT_CONFIRMED");
    // The sign-in form links to the page that sends a new mail, in the page's language.
    const germanForm = await formPost("/de/sign-in", { email, password });
    expect(germanForm.status).toBe(403);
    expect(germanForm.html).toContain("Bestätigungsseite");
    expect(germanForm.html).toMatch(/<a href="\/de\/confirm-email"[^>]*>Neue Bestätigungs-E-Mail anfordern<\/a>/);

    // Opening the link changes nothing (a mail scanner may open it): it shows a button.
    const page = await fetch(link!);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Confirm my email address");
    expect((await signIn(email, password)).status).toBe(403);

    const code = new URL(link!).searchParams.get("confirmation")!;
    // A cross-site POST is refused and confirms nothing: a foreign Origin by React Router itself (400),
    // a cross-site Sec-Fetch-Site by the site's origin guard (403).
    const foreign = { intent: "confirm", code };
    expect((await formPost("/confirm-email", foreign, { origin: "https://evil.example" })).status).toBe(400);
    const crossSite = await formPost("/confirm-email", foreign, { "sec-fetch-site": "cross-site" });
    expect(crossSite.status).toBe(403);
    expect(crossSite.html).toContain("This form can only be sent from this site.");
    expect((await signIn(email, password)).status).toBe(403);

    const confirmed = await formPost("/confirm-email", { intent: "confirm", code });
    expect(confirmed.status).toBe(200);
    expect(confirmed.html).toContain("your email address is confirmed");
    expect((await signIn(email, password)).status).toBe(200);

    // The link works once.
    const again = await formPost("/confirm-email", { intent: "confirm", code });
    expect(again.status).toBe(400);
    expect(again.html).toContain("This confirmation link is invalid or was already used");
  }, 60_000);

  it("a new link: one answer for an unknown, a confirmed and a waiting address; a mail for the last", async () => {
    const waiting = "waiting@example.com";
    expect((await formPost("/register", { email: waiting, password, passwordConfirmation: password })).status).toBe(
      200,
    );
    await mailTo(waiting, 0);
    const before = smtp.messages.length;
    const answers = await Promise.all(
      ["nobody@example.com", email, waiting].map((address) =>
        formPost("/confirm-email", { intent: "resend", email: address }),
      ),
    );
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.html.replace(/[a-z-]+@example\.com/g, "")).toBe(
        answers[0]!.html.replace(/[a-z-]+@example\.com/g, ""),
      );
    }
    const mail = await mailTo(waiting, before);
    expect(linkIn(mail)).toMatch(/\/confirm-email\?confirmation=[0-9a-f]{40}$/);
    expect(smtp.messages.slice(before).every((m) => m.to.includes(waiting))).toBe(true);
  }, 60_000);

  it("Strapi's own confirmation URL (older mails) leads to the site's page, which says so in each locale", async () => {
    const mail = await mailTo("waiting@example.com", 0);
    const code = new URL(linkIn(mail)!).searchParams.get("confirmation")!;
    // With the account API guard on (CMS_ACCOUNT_API_SECRET), a browser opening it gets 403 SITE_ONLY
    // (tests/integration/cms-account-api-guard.test.ts); the redirect is Strapi's, checked with the header.
    const strapi = await fetch(`${site.cms.url}/api/auth/email-confirmation?confirmation=${code}`, {
      redirect: "manual",
      headers: SITE_SECRET_HEADERS,
    });
    expect(strapi.status).toBe(302);
    expect(strapi.headers.get("location")).toBe(`${site.app.url}/confirm-email?status=confirmed`);
    expect((await signIn("waiting@example.com", password)).status).toBe(200);
    const english = await (await fetch(strapi.headers.get("location")!)).text();
    expect(english).toContain("Thank you: your email address is confirmed. You can sign in now.");
    const german = await fetch(`${site.app.url}/de/confirm-email?status=confirmed`);
    expect(german.status).toBe(200);
    const html = await german.text();
    expect(html).toContain("Vielen Dank: Ihre E-Mail-Adresse ist bestätigt. Sie können sich jetzt anmelden.");
    expect(html).toContain('href="/de/sign-in"');
    expect(german.headers.get("x-frame-options")).toBe("SAMEORIGIN");
  }, 60_000);

  it("the reset mail too comes from the site's name and links to the site", async () => {
    const before = smtp.messages.length;
    expect((await formPost("/forgot-password", { email })).status).toBe(200);
    const mail = await mailTo(email, before);
    expect(mailHeader(mail, "From")).toMatch(/^"?Acme Test"? <no-reply@127\.0\.0\.1>$/);
    expect(mailText(mail)).toMatch(new RegExp(`${site.app.url}/reset-password\\?code=[0-9a-f]+`));
  }, 60_000);

  it("two OAuth syncs for one new email at the same moment make one CMS user", async () => {
    // On SQLite Strapi's one connection already serialises the syncs' transactions, so this holds
    // without the CMS's per-email lock too; the lock's own proof is its unit test
    // (cms/tests/plugins/accounts/server/services/oauth-sync/oauth-sync.test.js), this one guards the outcome.
    const sync = (provider: string, subject: string) =>
      fetch(`${site.cms.url}/api/oauth-sync`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${SYNC_SECRET}` },
        body: JSON.stringify({ provider, subject, email: "twice@example.com", emailVerified: true }),
      }).then((r) => r.status);
    const statuses = await Promise.all([sync("github", "1001"), sync("google", "g-1001"), sync("oidc", "o-1001")]);
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    const admin = await StrapiAdmin.login(site.cms.url);
    const users = (await admin.call(
      "GET",
      "/content-manager/collection-types/plugin::users-permissions.user?filters[email][$eq]=twice@example.com",
    )) as { results: unknown[] };
    expect(users.results).toHaveLength(1);
  }, 60_000);

  // The refusals the shared CMS's settings cannot give (cms-account-refusal-codes.test.ts has the others).
  it("the CMS's refusals carry the accounts plugin's codes: EMAIL_NOT_CONFIRMED, REGISTRATION_CLOSED", async () => {
    const cmsPost = async (path: string, body: unknown) => {
      const response = await fetch(`${site.cms.url}/api${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", ...SITE_SECRET_HEADERS },
        body: JSON.stringify(body),
      });
      const answer = (await response.json()) as { error?: { details?: { code?: string } } };
      return { status: response.status, code: answer.error?.details?.code };
    };
    const waiting = "codes-waiting@example.com";
    const register = (address: string) =>
      cmsPost("/auth/local/register", { username: address, email: address, password });
    expect((await register(waiting)).status).toBe(200);
    expect(await cmsPost("/auth/local", { identifier: waiting, password })).toEqual({
      status: 400,
      code: "EMAIL_NOT_CONFIRMED",
    });
    // Without the password, nothing about the account is told.
    expect(await cmsPost("/auth/local", { identifier: waiting, password: "Not-the-passw0rd" })).toEqual({
      status: 400,
      code: "INVALID_CREDENTIALS",
    });
    const admin = await StrapiAdmin.login(site.cms.url);
    const { settings } = (await admin.call("GET", "/users-permissions/advanced")) as {
      settings: Record<string, unknown>;
    };
    await admin.call("PUT", "/users-permissions/advanced", { ...settings, allow_register: false });
    try {
      expect(await register("codes-closed@example.com")).toEqual({ status: 400, code: "REGISTRATION_CLOSED" });
    } finally {
      await admin.call("PUT", "/users-permissions/advanced", settings);
    }
  }, 60_000);

  it(
    "a restart keeps an admin's change; what CMS_EMAIL_CONFIRMATION sets comes back",
    async () => {
      const admin = await StrapiAdmin.login(site.cms.url);
      const { settings } = (await admin.call("GET", "/users-permissions/advanced")) as {
        settings: Record<string, unknown>;
      };
      await admin.call("PUT", "/users-permissions/advanced", {
        ...settings,
        allow_register: false,
        email_confirmation: false,
      });
      await site.restartCms();
      const fresh = await StrapiAdmin.login(site.cms.url);
      const after = ((await fresh.call("GET", "/users-permissions/advanced")) as { settings: Record<string, unknown> })
        .settings;
      expect(after.allow_register).toBe(false);
      expect(after.email_confirmation).toBe(true);
      expect(after.email_reset_password).toBe(`${site.app.url}/reset-password`);
    },
    TIMEOUT,
  );
});
