import { setTimeout as delay } from "node:timers/promises";

import { describe, expect, it } from "vitest";

import { formTokenOf, postAuthForm } from "../support/auth-form.ts";
import { SITE_SECRET_HEADERS } from "../support/site-secret.ts";
import { postToSite } from "../support/site-requests.ts";
import { strapiSite } from "../support/strapi-site.ts";

// Issue 15, point 5: the bot check of the sign-in, register and forgot-password forms
// (docs/decisions/0021), through the built site and the real Strapi, as plain HTML form posts
// (no JavaScript). The site runs with the real default minimum fill time: the other tests start it
// with none (tests/support/app-server.ts), so an empty value here means "unset".
const site = strapiSite("auth-bot-check", {
  sharedCms: true,
  appEnv: { AUTH_FORM_MIN_FILL_MS: "", AUTH_RATE_LIMIT_MAX: "1000" },
});
const MIN_FILL_MS = 1500;
const PASSWORD = "Bot-check-passw0rd!";

/** Opens the page as a browser does: its form token, and when the page was on screen. */
async function openForm(pagePath: string) {
  const token = await formTokenOf(site.app.url, pagePath);
  expect(token.formToken, `${pagePath} has a form token`).toBeTruthy();
  return { token, shownAt: Date.now() };
}

function send(pagePath: string, fields: Record<string, string>) {
  return fetch(`${site.app.url}${pagePath}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: site.app.url },
    body: new URLSearchParams(fields),
    redirect: "manual",
  });
}

/** Whether the CMS has a user with this address and password (a sign-in at the CMS itself). */
async function cmsUserExists(email: string): Promise<boolean> {
  const response = await fetch(`${site.cms.url}/api/auth/local`, {
    method: "POST",
    headers: { "content-type": "application/json", ...SITE_SECRET_HEADERS },
    body: JSON.stringify({ identifier: email, password: PASSWORD }),
  });
  return response.ok;
}

const registration = (email: string) => ({ email, password: PASSWORD, passwordConfirmation: PASSWORD });
const TOO_FAST = "That was quicker than we expect from a person. Please check the form and send it again.";
const REJECTED = "This form could not be accepted: it may have been open for too long. Please send it again.";

describe("the bot check on the public auth forms (real default minimum fill time)", () => {
  it("a register form sent at once is refused (400, no user, email kept, no password); later it works", async () => {
    const { token, shownAt } = await openForm("/register");
    const fast = await send("/register", { ...token, ...registration("quick@example.com") });
    expect(fast.status).toBe(400);
    const html = await fast.text();
    expect(html).toContain(TOO_FAST);
    expect(html).toContain('value="quick@example.com"');
    expect(html).not.toContain(PASSWORD);
    // The page answered anew carries a new token for the next try.
    expect(/name="formToken" value="([^"]+)"/.exec(html)?.[1]).not.toBe(token.formToken);
    expect(await cmsUserExists("quick@example.com")).toBe(false);

    // A person takes longer than the minimum: the same form, sent after it, registers.
    await delay(Math.max(0, shownAt + MIN_FILL_MS + 100 - Date.now()));
    const person = await send("/register", { ...token, ...registration("quick@example.com") });
    expect(person.status).toBe(200);
    expect(await cmsUserExists("quick@example.com")).toBe(true);
  });

  it("a filled honeypot is refused on each form, with words that do not say why, and reaches no CMS", async () => {
    const forms = {
      "/register": registration("honey@example.com"),
      "/sign-in": { email: "quick@example.com", password: PASSWORD },
      "/forgot-password": { email: "quick@example.com" },
    };
    const opened = await Promise.all(Object.keys(forms).map((pagePath) => openForm(pagePath)));
    await delay(Math.max(0, Math.max(...opened.map((form) => form.shownAt)) + MIN_FILL_MS + 100 - Date.now()));
    for (const [index, [pagePath, fields]] of Object.entries(forms).entries()) {
      const response = await send(pagePath, { ...opened[index]!.token, remarks: "https://spam.example", ...fields });
      expect(response.status, pagePath).toBe(400);
      expect(response.headers.getSetCookie().join(), pagePath).not.toContain("session_token");
      const html = await response.text();
      expect(html, pagePath).toContain(REJECTED);
      expect(html, pagePath).not.toContain("spam.example");
    }
    expect(await cmsUserExists("honey@example.com")).toBe(false);
    // The same sign-in with the honeypot left empty is a person's: it signs in.
    const signedIn = await send("/sign-in", { ...opened[1]!.token, remarks: "", ...forms["/sign-in"] });
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.getSetCookie().join()).toContain("session_token");
  });

  it("a missing, forged, tampered or other form's token is refused, in the page's language", async () => {
    const { token, shownAt } = await openForm("/sign-in");
    const registerToken = (await openForm("/register")).token.formToken!;
    await delay(Math.max(0, shownAt + MIN_FILL_MS + 100 - Date.now()));
    const [time, mac] = token.formToken!.split(".");
    const fields = { email: "quick@example.com", password: PASSWORD };
    for (const formToken of [undefined, "", "garbage", `${time}.${"A".repeat(43)}`, `${time}x.${mac}`, registerToken]) {
      const response = await send("/sign-in", { ...(formToken === undefined ? {} : { formToken }), ...fields });
      expect(response.status, String(formToken)).toBe(400);
      expect(await response.text(), String(formToken)).toContain(REJECTED);
    }
    const german = await send("/de/forgot-password", { email: "quick@example.com" });
    expect(german.status).toBe(400);
    expect(await german.text()).toContain("Dieses Formular konnte nicht angenommen werden");
  });

  it("the German pages carry the check too: too fast is said in German", async () => {
    const response = await postAuthForm(site.app.url, "/de/register", registration("schnell@example.com"));
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("Das ging schneller, als wir es von einem Menschen erwarten.");
    expect(await cmsUserExists("schnell@example.com")).toBe(false);
  });

  it("the provider buttons and the JSON endpoints are not part of the form check (decision 0021)", async () => {
    // No token, no wait: the provider button answers for itself (no provider configured here).
    const oauth = await send("/sign-in", { intent: "oauth", provider: "github" });
    expect(await oauth.text()).toContain("This sign-in provider is not available here.");
    const json = await postToSite(site.app.url, "/api/auth/register-cms", registration("json@example.com"));
    expect(json.status).toBe(200);
    expect(await cmsUserExists("json@example.com")).toBe(true);
  });
});
