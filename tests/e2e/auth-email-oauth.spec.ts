import { expect, test, type Cookie, type Page, type PlaywrightWorkerArgs } from "@playwright/test";

import { registerInCms, signInWithOidc } from "../support/accounts.ts";
import { formTokenOf } from "../support/auth-form.ts";
import { waitForMail } from "../support/cms-mail.ts";
import { SITE_SECRET_HEADERS } from "../support/site-secret.ts";
import { StrapiAdmin } from "../support/strapi-admin.ts";
import { e2eEnv, siteOrigin } from "../support/e2e-env.ts";

// The flows that leave the site and come back: the reset email's link, and signing in
// with an OpenID Connect provider (a real one on loopback, standing in for GitHub/Google).
const cmsUrl = () => e2eEnv("E2E_CMS_URL");
const mailDir = () => e2eEnv("E2E_MAIL_DIR");
let counter = 0;
const unique = (project: string) => `${project}-${Date.now()}-${counter++}`;

async function cmsUserIdFor(email: string, password?: string): Promise<number | null> {
  if (!password) return null;
  const response = await fetch(`${cmsUrl()}/api/auth/local`, {
    method: "POST",
    headers: { "content-type": "application/json", ...SITE_SECRET_HEADERS },
    body: JSON.stringify({ identifier: email, password }),
  });
  return response.ok ? ((await response.json()) as { user: { id: number } }).user.id : null;
}

test("a forgotten password is reset from the email's link, then the new password works", async ({ page }, info) => {
  const email = `reset-${unique(info.project.name)}@example.com`;
  await registerInCms(email, "Forgotten-1");
  const before = Date.now();
  await page.goto("/forgot-password");
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Send the link" }).click();
  await expect(page.getByRole("status")).toContainText("If an account exists for");

  const mail = await waitForMail(mailDir(), email, { after: before });
  expect(mail.resetLink).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/reset-password\?code=/);
  await page.goto(mail.resetLink!);
  await page.getByLabel("New password", { exact: true }).fill("Remembered-2");
  await page.getByLabel("Repeat the new password").fill("Remembered-2");
  await page.getByRole("button", { name: "Save the new password" }).click();
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByTestId("account-email")).toHaveText(email);
  expect(await cmsUserIdFor(email, "Remembered-2")).not.toBeNull();
  expect(await cmsUserIdFor(email, "Forgotten-1")).toBeNull();

  // The link works once.
  await page.context().clearCookies();
  await page.goto(mail.resetLink!);
  await page.getByLabel("New password", { exact: true }).fill("Again-and-3");
  await page.getByLabel("Repeat the new password").fill("Again-and-3");
  await page.getByRole("button", { name: "Save the new password" }).click();
  await expect(page.getByRole("alert")).toContainText("invalid or was already used");
});

test("an unknown address gets the same answer and status as a known one", async ({ request }, info) => {
  const known = `known-${unique(info.project.name)}@example.com`;
  await registerInCms(known, "Known-pass-1");
  const origin = siteOrigin();
  const token = await formTokenOf(origin, "/forgot-password");
  const ask = (email: string) =>
    request.post("/forgot-password", { headers: { origin }, form: { ...token, email }, maxRedirects: 0 });
  const [forKnown, forUnknown] = await Promise.all([
    ask(known),
    ask(`nobody-${unique(info.project.name)}@example.com`),
  ]);
  expect(forUnknown.status()).toBe(forKnown.status());
  expect(forKnown.status()).toBe(200);
  const strip = (html: string) =>
    html.replace(/[a-z0-9.-]+@example\.com/g, "EMAIL").replace(/<script[\s\S]*?<\/script>/g, "");
  expect(strip(await forUnknown.text())).toBe(strip(await forKnown.text()));
});

test("signing in with an OpenID Connect provider creates the CMS user, and reuses it next time", async ({
  page,
}, info) => {
  const login = `oidc-${unique(info.project.name)}`;
  await signInWithOidc(page, login);
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByTestId("account-email")).toHaveText(`${login}@example.com`);
  const firstId = await page.request.get("/api/cms-proxy/users/me").then((response) => response.json());
  expect(firstId.email).toBe(`${login}@example.com`);
  expect(firstId.provider).toBe("local-oidc");

  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(page).toHaveURL(/\/$/);
  await signInWithOidc(page, login);
  await expect(page).toHaveURL(/\/account$/);
  const secondId = await page.request.get("/api/cms-proxy/users/me").then((response) => response.json());
  expect(secondId.id).toBe(firstId.id);
});

test("an unverified provider email that matches a password account is refused with a clear message", async ({
  page,
}, info) => {
  const login = `unverified-${unique(info.project.name)}`;
  await registerInCms(`${login}@example.com`, "Password-account-1");
  await signInWithOidc(page, login);
  await expect(page).toHaveURL(/\/sign-in\?error=OAUTH_EMAIL_EXISTS/);
  await expect(page.getByRole("alert")).toContainText("Sign in with your password instead");
  const cookies = await page.context().cookies();
  expect(cookies.filter((cookie) => cookie.name === "better-auth.session_token")).toEqual([]);
});

test("a provider sign-in refused from /de/sign-in comes back to /de/sign-in, in German", async ({ page }, info) => {
  const login = `unverified-de-${unique(info.project.name)}`;
  await registerInCms(`${login}@example.com`, "Password-account-1");
  await signInWithOidc(page, login, "/de/sign-in", "Mit Local OIDC anmelden");
  await expect(page).toHaveURL(/\/de\/sign-in\?error=OAUTH_EMAIL_EXISTS$/);
  await expect(page.getByRole("alert")).toContainText("Melden Sie sich stattdessen mit Ihrem Passwort an.");
});

test("an OpenID sign-in does not land in a password account someone registered with its address (pre-hijack)", async ({
  page,
}, info) => {
  const login = `victim-${unique(info.project.name)}`;
  const email = `${login}@example.com`;
  // The attacker registers the victim's address with a password: no confirmation mail is sent.
  await registerInCms(email, "Attacker-pass-1");
  const attackerId = await cmsUserIdFor(email, "Attacker-pass-1");
  expect(attackerId).not.toBeNull();
  // Later the victim signs in with their provider, which verified the address.
  await signInWithOidc(page, login);
  await expect(page).toHaveURL(/\/sign-in\?error=OAUTH_ACCOUNT_UNCONFIRMED/);
  await expect(page.getByRole("alert")).toContainText("was never confirmed");
  const cookies = await page.context().cookies();
  expect(cookies.filter((cookie) => cookie.name === "better-auth.session_token")).toEqual([]);
  expect((await page.request.get("/api/cms-proxy/users/me")).status()).toBe(401);
  // The attacker's password still opens only the account it made.
  expect(await cmsUserIdFor(email, "Attacker-pass-1")).toBe(attackerId);
});

const resync = (request: Page["request"]) =>
  request.post("/api/auth/sync-oauth-cms", { headers: { origin: siteOrigin() }, data: {} });

/** Another client holding a copy of these cookies (someone who copied them). */
function withCookies(playwright: PlaywrightWorkerArgs["playwright"], cookies: Cookie[]) {
  return playwright.request.newContext({ baseURL: siteOrigin(), storageState: { cookies, origins: [] } });
}

async function cmsUsersWithEmail(admin: StrapiAdmin, email: string) {
  const query = new URLSearchParams({ "filters[$and][0][email][$eqi]": email });
  const { results } = (await admin.call(
    "GET",
    `/content-manager/collection-types/plugin::users-permissions.user?${query}`,
  )) as {
    results: Array<{ documentId: string }>;
  };
  return results;
}

test("a copy of an OpenID session's cookies, replayed after sign-out, cannot be turned into a new session", async ({
  page,
  playwright,
}, info) => {
  const login = `replay-${unique(info.project.name)}`;
  await signInWithOidc(page, login);
  await expect(page).toHaveURL(/\/account$/);
  const copy = await page.context().cookies();
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(page).toHaveURL(/\/$/);

  const attacker = await withCookies(playwright, copy);
  try {
    const answer = await resync(attacker);
    expect(answer.status()).toBe(401);
    expect(await (await attacker.get("/api/auth/get-session")).json()).toBeNull();
    expect((await attacker.get("/api/cms-proxy/users/me")).status()).toBe(401);
  } finally {
    await attacker.dispose();
  }
});

test("an OpenID user an administrator deleted cannot bring their CMS user back with their old session", async ({
  page,
}, info) => {
  const login = `deleted-${unique(info.project.name)}`;
  const email = `${login}@example.com`;
  await signInWithOidc(page, login);
  await expect(page).toHaveURL(/\/account$/);
  const admin = await StrapiAdmin.login(cmsUrl());
  const [user] = await cmsUsersWithEmail(admin, email);
  await admin.call("DELETE", `/content-manager/collection-types/plugin::users-permissions.user/${user!.documentId}`);

  expect((await resync(page.request)).status()).toBe(401);
  expect(await cmsUsersWithEmail(admin, email)).toEqual([]);
  expect(await (await page.request.get("/api/auth/get-session")).json()).toBeNull();
});

test("re-syncing an OpenID session issues a new session and revokes the one it replaces", async ({
  page,
  playwright,
}, info) => {
  const login = `resync-${unique(info.project.name)}`;
  await signInWithOidc(page, login);
  await expect(page).toHaveURL(/\/account$/);
  // With JavaScript the header reads the session once hydrated; let that read finish first, or
  // its answer (for the session about to be revoked) would expire the new cookies it races with.
  await page.waitForLoadState("networkidle");
  const before = await page.context().cookies();

  const answer = await resync(page.request);
  expect(answer.status()).toBe(200);
  expect((await answer.json()).user.email).toBe(`${login}@example.com`);
  // The browser holds the new session...
  expect((await (await page.request.get("/api/auth/get-session")).json())?.user?.email).toBe(`${login}@example.com`);
  await page.goto("/account");
  await expect(page.getByTestId("account-email")).toHaveText(`${login}@example.com`);
  // ...and a copy of the old one is dead.
  const old = await withCookies(playwright, before);
  try {
    expect(await (await old.get("/api/auth/get-session")).json()).toBeNull();
    expect((await resync(old)).status()).toBe(401);
  } finally {
    await old.dispose();
  }
});
