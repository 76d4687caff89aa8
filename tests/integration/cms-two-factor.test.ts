import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";

import getPort from "../support/free-port.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { startCms, type CmsHandle } from "../support/cms-server.ts";
import { waitForMail } from "../support/cms-mail.ts";
import { StrapiAdmin } from "../support/strapi-admin.ts";
import { TOTP_PERIOD_SECONDS, totpCode } from "../support/totp.ts";

/**
 * The account's second factor on the real Strapi (cms/src/plugins/accounts/server/controllers/account-two-factor.js,
 * docs/cms-contract.md "Account two-factor"): enrolment with a password and a code, codes
 * checked once each, recovery codes used once, the per-account lock, disabling; the secret
 * stored sealed and never in any answer but the setup's; each user acts on their own account only.
 * Codes are computed here from the secret the setup returns (tests/support/totp.ts).
 */

const PORT = await getPort();
const TIMEOUT = 240_000;
const PASSWORD = "Two-factor-passw0rd!";
const SYNC_SECRET = "two-factor-oauth-sync-secret-0123456789";
const STEP_MS = TOTP_PERIOD_SECONDS * 1000;

type Json = Record<string, any>;

const dir = mkdtempSync(path.join(tmpdir(), "cms-two-factor-"));
let cms: CmsHandle;

beforeAll(async () => {
  cms = await startCms({
    port: PORT,
    dbFile: path.join(dir, "cms.db"),
    fresh: true,
    env: { SITE_NAME: "Two & Factor", CMS_OAUTH_SYNC_SECRET: SYNC_SECRET, CMS_MAIL_DIR: path.join(dir, "mail") },
  });
}, TIMEOUT);

afterAll(async () => {
  await cms?.stop();
  rmSync(dir, { recursive: true, force: true });
}, TIMEOUT);

async function call(method: string, apiPath: string, jwt: string | null, body?: unknown) {
  const response = await fetch(`${cms.url}${apiPath}`, {
    method,
    headers: {
      ...(jwt === null ? {} : { authorization: `Bearer ${jwt}` }),
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: (text ? JSON.parse(text) : {}) as Json };
}

/** GET /api/account-two-factor (no route), else a POST to the route with a JSON body. */
const twoFactor = (jwt: string | null, route = "", body?: unknown) =>
  route === ""
    ? call("GET", "/api/account-two-factor", jwt)
    : call("POST", `/api/account-two-factor${route}`, jwt, body ?? {});
const status = (jwt: string) => call("GET", "/api/account-two-factor", jwt);

/** Strapi's error shape, with the stable code and a message a person can act on. */
function expectRefused(answer: { status: number; body: Json }, httpStatus: number, code: string) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(httpStatus);
  expect(answer.body.data).toBeNull();
  expect(answer.body.error).toMatchObject({ status: httpStatus, details: { code } });
  expect(answer.body.error.message).toMatch(/\w{3,}.*\./);
}

async function register(email: string): Promise<string> {
  const answer = await call("POST", "/api/auth/local/register", null, { username: email, email, password: PASSWORD });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.jwt as string;
}

async function signIn(email: string): Promise<{ status: number; body: Json }> {
  return call("POST", "/api/auth/local", null, { identifier: email, password: PASSWORD });
}

/** Setup and enable for a new user: its secret, recovery codes and the JWT the enabling issued. */
async function enrolled(email: string) {
  const setup = await twoFactor(await register(email), "/setup", { password: PASSWORD });
  expect(setup.status, JSON.stringify(setup.body)).toBe(200);
  const secret = setup.body.secret as string;
  const jwt = (await signIn(email)).body.jwt as string;
  const enable = await twoFactor(jwt, "/enable", { code: totpCode(secret) });
  expect(enable.status, JSON.stringify(enable.body)).toBe(200);
  return { secret, recoveryCodes: enable.body.recoveryCodes as string[], jwt: enable.body.jwt as string };
}

/** The user's row as stored (SQLite), to see what the database holds. */
function storedUser(email: string): Json {
  const Database = createRequire(path.resolve("cms/package.json"))("better-sqlite3") as new (
    file: string,
    options: { readonly: boolean },
  ) => { prepare(sql: string): { get(...args: unknown[]): Json }; close(): void };
  const db = new Database(cms.dbFile, { readonly: true });
  try {
    return db.prepare("SELECT * FROM up_users WHERE email = ?").get(email);
  } finally {
    db.close();
  }
}

const PRIVATE_KEYS = [
  "twoFactorEnabled",
  "twoFactorSecret",
  "twoFactorPendingSecret",
  "twoFactorRecoveryCodes",
  "twoFactorLastStep",
  "twoFactorFailures",
  "twoFactorLockedUntil",
];

it("the test's TOTP helper gives RFC 6238's code (SHA-1 key, 59 s)", () => {
  // base32 of the RFC's ASCII key "12345678901234567890"; the RFC's 8-digit code is 94287082.
  expect(totpCode("GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ", 59_000)).toBe("287082");
});

describe("enrolment, sign-in codes, recovery codes, disabling", () => {
  it(
    "setup → enable → verify → replay refused → recovery code once → new codes → disable",
    async () => {
      const email = "ann@example.com";
      const first = await register(email);
      expect((await status(first)).body).toEqual({ enabled: false, recoveryCodesLeft: 0 });

      // Setup: a new secret each time (the last one counts), shown with the otpauth URI.
      const earlier = await twoFactor(first, "/setup", { password: PASSWORD });
      const setup = await twoFactor(first, "/setup", { password: PASSWORD });
      expect(setup.status).toBe(200);
      const secret = setup.body.secret as string;
      expect(secret).toMatch(/^[A-Z2-7]{32}$/);
      expect(earlier.body.secret).not.toBe(secret);
      const uri = new URL(setup.body.uri as string);
      expect(`${uri.protocol}//${uri.host}${uri.pathname}`).toBe("otpauth://totp/Two%20%26%20Factor:ann%40example.com");
      expect(Object.fromEntries(uri.searchParams)).toEqual({
        secret,
        issuer: "Two & Factor",
        algorithm: "SHA1",
        digits: "6",
        period: "30",
      });
      expect((await status(first)).body.enabled).toBe(false);
      // The database holds the pending secret sealed, never in the clear.
      const pendingRow = storedUser(email);
      expect(String(pendingRow.two_factor_pending_secret)).toMatch(/^v1\./);
      expect(JSON.stringify(pendingRow)).not.toContain(secret);

      // The earlier setup's secret no longer enables; the last one does.
      expectRefused(await twoFactor(first, "/enable", { code: totpCode(earlier.body.secret) }), 400, "INVALID_CODE");
      const other = (await signIn(email)).body.jwt as string;
      const enablingCode = totpCode(secret);
      const enable = await twoFactor(first, "/enable", { code: enablingCode });
      expect(enable.status, JSON.stringify(enable.body)).toBe(200);
      const recoveryCodes = enable.body.recoveryCodes as string[];
      expect(recoveryCodes).toHaveLength(10);
      for (const code of recoveryCodes) expect(code).toMatch(/^[2-9A-HJ-NP-Z]{5}-[2-9A-HJ-NP-Z]{5}$/);

      // A privilege change: every earlier JWT ends (this one too); the answer's JWT works.
      for (const ended of [first, other]) {
        expect((await call("GET", "/api/users/me", ended)).status).toBe(401);
        expect((await status(ended)).status).toBe(401);
      }
      const jwt = enable.body.jwt as string;
      expect((await call("GET", "/api/users/me", jwt)).body.email).toBe(email);
      expect((await status(jwt)).body).toEqual({ enabled: true, recoveryCodesLeft: 10 });

      // Stored: the secret sealed, the recovery codes as hashes only.
      const row = storedUser(email);
      expect(String(row.two_factor_secret)).toMatch(/^v1\./);
      expect(row.two_factor_pending_secret).toBeNull();
      expect(JSON.parse(row.two_factor_recovery_codes)).toHaveLength(10);
      const stored = JSON.stringify(row);
      for (const plain of [secret, ...recoveryCodes, ...recoveryCodes.map((code) => code.replace("-", ""))]) {
        expect(stored).not.toContain(plain);
      }

      // The code that enabled is used (its step is stored: the same code, whatever the clock says now,
      // within its window); the next step's code works once, then is refused as used.
      expectRefused(await twoFactor(jwt, "/verify", { code: enablingCode }), 400, "CODE_ALREADY_USED");
      const next = totpCode(secret, Date.now() + STEP_MS);
      expect((await twoFactor(jwt, "/verify", { code: next })).body).toEqual({ method: "totp", recoveryCodesLeft: 10 });
      const replay = await twoFactor(jwt, "/verify", { code: next });
      expectRefused(replay, 400, "CODE_ALREADY_USED");
      expect(replay.body.error.message).toBe("That code was already used. Wait for the next code in your app.");
      // Two steps ahead is outside the window.
      expectRefused(
        await twoFactor(jwt, "/verify", { code: totpCode(secret, Date.now() + 3 * STEP_MS) }),
        400,
        "INVALID_CODE",
      );

      // A recovery code: any case, without its dash; once.
      const typed = recoveryCodes[0]!.toLowerCase().replace("-", "");
      expect((await twoFactor(jwt, "/verify", { code: typed })).body).toEqual({
        method: "recovery",
        recoveryCodesLeft: 9,
      });
      expectRefused(await twoFactor(jwt, "/verify", { code: recoveryCodes[0] }), 400, "INVALID_CODE");
      expect((await status(jwt)).body).toEqual({ enabled: true, recoveryCodesLeft: 9 });

      // New recovery codes (with a recovery code): the old ones are gone, the new ones work.
      const renewed = await twoFactor(jwt, "/recovery-codes", { code: recoveryCodes[1] });
      expect(renewed.status, JSON.stringify(renewed.body)).toBe(200);
      const newCodes = renewed.body.recoveryCodes as string[];
      expect(newCodes).toHaveLength(10);
      expect(newCodes.some((code) => recoveryCodes.includes(code))).toBe(false);
      expectRefused(await twoFactor(jwt, "/verify", { code: recoveryCodes[2] }), 400, "INVALID_CODE");
      expect((await twoFactor(jwt, "/verify", { code: newCodes[0] })).body.method).toBe("recovery");
      expect((await status(jwt)).body).toEqual({ enabled: true, recoveryCodesLeft: 9 });

      // Disable: password and a code, both; then everything is gone.
      expectRefused(await twoFactor(jwt, "/disable", { code: newCodes[1] }), 400, "INVALID_PASSWORD");
      expectRefused(await twoFactor(jwt, "/disable", { password: PASSWORD }), 400, "INVALID_CODE");
      const wrongPassword = await twoFactor(jwt, "/disable", { password: "wrong-Passw0rd!", code: newCodes[1] });
      expectRefused(wrongPassword, 400, "INVALID_PASSWORD");
      expect((await status(jwt)).body).toEqual({ enabled: true, recoveryCodesLeft: 9 });
      const disabled = await twoFactor(jwt, "/disable", { password: PASSWORD, code: newCodes[1] });
      expect(disabled.status, JSON.stringify(disabled.body)).toBe(200);
      expect((await status(jwt)).body).toEqual({ enabled: false, recoveryCodesLeft: 0 });
      const cleared = storedUser(email);
      for (const column of ["two_factor_secret", "two_factor_pending_secret", "two_factor_recovery_codes"]) {
        expect(cleared[column]).toBeNull();
      }
      expectRefused(await twoFactor(jwt, "/verify", { code: totpCode(secret) }), 409, "NOT_ENABLED");
      // Signing in is the password alone again, and the JWT still works (disabling ends no session).
      expect((await call("GET", "/api/users/me", jwt)).status).toBe(200);
    },
    TIMEOUT,
  );

  it("5 wrong codes in a row lock the account's codes (429 + wait), the right one too; a success resets", async () => {
    const { secret, recoveryCodes, jwt } = await enrolled("locked@example.com");
    const wrong = totpCode(secret, Date.now() + 10 * STEP_MS);
    // Four wrong, then a right one: the count starts again.
    for (let i = 0; i < 4; i += 1) expectRefused(await twoFactor(jwt, "/verify", { code: wrong }), 400, "INVALID_CODE");
    expect((await twoFactor(jwt, "/verify", { code: recoveryCodes[0] })).status).toBe(200);
    for (let i = 0; i < 4; i += 1) expectRefused(await twoFactor(jwt, "/verify", { code: wrong }), 400, "INVALID_CODE");
    // The fifth in a row locks.
    expectRefused(await twoFactor(jwt, "/verify", { code: wrong }), 400, "INVALID_CODE");
    const locked = await twoFactor(jwt, "/verify", { code: recoveryCodes[1] });
    expectRefused(locked, 429, "TOO_MANY_ATTEMPTS");
    expect(locked.body.error.details.retryAfterSeconds).toBeGreaterThan(290);
    expect(locked.body.error.details.retryAfterSeconds).toBeLessThanOrEqual(300);
    expect(locked.headers.get("retry-after")).toBe(String(locked.body.error.details.retryAfterSeconds));
    expect(locked.body.error.message).toBe("Too many wrong codes. Try again in 5 minutes.");
    // The lock is the account's: a new sign-in (a new JWT) is locked too; the right TOTP code as well,
    // and the other routes that take a code (with a whole session's JWT: the new sign-in's is only
    // for the code check).
    const again = (await signIn("locked@example.com")).body.jwt as string;
    expectRefused(
      await twoFactor(again, "/verify", { code: totpCode(secret, Date.now() + STEP_MS) }),
      429,
      "TOO_MANY_ATTEMPTS",
    );
    expectRefused(await twoFactor(jwt, "/recovery-codes", { code: recoveryCodes[1] }), 429, "TOO_MANY_ATTEMPTS");
    expectRefused(
      await twoFactor(jwt, "/disable", { password: PASSWORD, code: recoveryCodes[1] }),
      429,
      "TOO_MANY_ATTEMPTS",
    );
    // Nothing was used up while locked.
    expect((await status(again)).body).toEqual({ enabled: true, recoveryCodesLeft: 9 });
  });

  it("wrong passwords to disable count too: the fifth locks, and 2FA stays on", async () => {
    const { recoveryCodes, jwt } = await enrolled("guessed@example.com");
    const attempt = { password: "Guessed-passw0rd!", code: recoveryCodes[0] };
    for (let i = 0; i < 5; i += 1) expectRefused(await twoFactor(jwt, "/disable", attempt), 400, "INVALID_PASSWORD");
    const locked = await twoFactor(jwt, "/disable", { password: PASSWORD, code: recoveryCodes[0] });
    expectRefused(locked, 429, "TOO_MANY_ATTEMPTS");
    expect((await status(jwt)).body).toEqual({ enabled: true, recoveryCodesLeft: 10 });
  });

  it("garbled codes are a 400 with a message, and count for nothing", async () => {
    const { secret, jwt } = await enrolled("garbled@example.com");
    for (const code of [undefined, "", "12345", "1234567", "abc", 123456, "ABCDE-FGHJ0"]) {
      const answer = await twoFactor(jwt, "/verify", code === undefined ? {} : { code });
      expectRefused(answer, 400, "INVALID_CODE");
      expect(answer.body.error.message).toBe(
        "Enter the 6-digit code from your authenticator app, or one of your recovery codes.",
      );
    }
    expectRefused(await twoFactor(jwt, "/verify", ["123456"]), 400, "INVALID_CODE");
    // Seven garbled tries did not lock: the right code is accepted.
    expect((await twoFactor(jwt, "/verify", { code: totpCode(secret, Date.now() + STEP_MS) })).status).toBe(200);
  });
});

describe("the CMS asked directly: the password alone opens nothing but the code check", () => {
  // The CMS's port is public (its admin panel): an attacker who knows the password asks Strapi
  // itself, past the site's second step. Finding 21 in docs/security.md.
  it(
    "a JWT from /auth/local or /auth/reset-password of an account with 2FA: 401 everywhere until a code is verified",
    async () => {
      const email = "bypassed@example.com";
      const { secret } = await enrolled(email);
      const signedIn = await signIn(email);
      expect(signedIn.status).toBe(200);
      const half = signedIn.body.jwt as string;
      const refusedWith = async (jwt: string) => {
        expect((await call("GET", "/api/users/me", jwt)).status).toBe(401);
        const moved = { email: "thief@example.com", password: PASSWORD };
        expect((await call("POST", "/api/account-sessions/email-change", jwt, moved)).status).toBe(401);
        const deleted = await call("POST", "/api/account-sessions/delete-account", jwt, { password: PASSWORD });
        expect(deleted.status).toBe(401);
        const changed = {
          currentPassword: PASSWORD,
          password: "Thief-passw0rd!",
          passwordConfirmation: "Thief-passw0rd!",
        };
        expect((await call("POST", "/api/auth/change-password", jwt, changed)).status).toBe(401);
        // Strapi's own session routes neither (sign out everywhere, the list of sessions).
        expect((await call("POST", "/api/auth/logout", jwt, { scope: "all" })).status).toBe(401);
        expect((await call("GET", "/api/auth/sessions", jwt)).status).toBe(401);
        expect((await twoFactor(jwt, "/recovery-codes", { code: "AAAAA-AAAAA" })).status).toBe(401);
      };
      await refusedWith(half);
      // A refresh of the password step's session (Strapi's route) stays pending too.
      const refreshed = await call("POST", "/api/auth/refresh", null, { refreshToken: signedIn.body.refreshToken });
      expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
      await refusedWith(refreshed.body.jwt as string);
      expect(storedUser(email).email).toBe(email);
      expect(storedUser(email).two_factor_enabled).toBeTruthy();

      // A password reset proves the mailbox, not the second factor: the same.
      const sent = Date.now();
      expect((await call("POST", "/api/auth/forgot-password", null, { email })).status).toBe(200);
      const mail = await waitForMail(path.join(dir, "mail"), email, { after: sent });
      const code = new URL(mail.resetLink!).searchParams.get("code");
      const reset = await call("POST", "/api/auth/reset-password", null, {
        code,
        password: PASSWORD,
        passwordConfirmation: PASSWORD,
      });
      expect(reset.status, JSON.stringify(reset.body)).toBe(200);
      await refusedWith(reset.body.jwt as string);

      // What the site's second step needs still works with it: the state, then the code; after a
      // right code that JWT is a whole session (the site keeps it).
      const again = (await signIn(email)).body.jwt as string;
      const other = (await signIn(email)).body.jwt as string;
      expect((await status(again)).body).toEqual({ enabled: true, recoveryCodesLeft: 10 });
      expectRefused(await twoFactor(again, "/verify", { code: "000000" }), 400, "INVALID_CODE");
      expect((await call("GET", "/api/users/me", again)).status).toBe(401);
      const verified = await twoFactor(again, "/verify", { code: totpCode(secret, Date.now() + STEP_MS) });
      expect(verified.status, JSON.stringify(verified.body)).toBe(200);
      expect((await call("GET", "/api/users/me", again)).body.email).toBe(email);
      // Another half-signed-in JWT is not opened by that code.
      expect((await call("GET", "/api/users/me", other)).status).toBe(401);
    },
    TIMEOUT,
  );
});

describe("bad input to setup and enable changes nothing", () => {
  it("no or a wrong password: 400, no pending secret; enable without setup or with a bad code: 400", async () => {
    const jwt = await register("careful@example.com");
    const missing = await twoFactor(jwt, "/setup", {});
    expectRefused(missing, 400, "INVALID_PASSWORD");
    expect(missing.body.error.message).toBe("Enter your current password.");
    const wrong = await twoFactor(jwt, "/setup", { password: "not-the-Passw0rd" });
    expectRefused(wrong, 400, "INVALID_PASSWORD");
    expect(wrong.body.error.message).toBe("The password is not correct.");
    expect(storedUser("careful@example.com").two_factor_pending_secret).toBeNull();
    expectRefused(await twoFactor(jwt, "/enable", { code: "123456" }), 400, "NO_PENDING_SETUP");

    const { secret } = (await twoFactor(jwt, "/setup", { password: PASSWORD })).body;
    for (const code of [undefined, "12 34", "ABCDE-FGHJK"]) {
      const answer = await twoFactor(jwt, "/enable", { code });
      expectRefused(answer, 400, "INVALID_CODE");
      expect(answer.body.error.message).toBe("Enter the 6-digit code your authenticator app shows.");
    }
    expectRefused(
      await twoFactor(jwt, "/enable", { code: totpCode(secret, Date.now() + 5 * STEP_MS) }),
      400,
      "INVALID_CODE",
    );
    // Nothing changed: still off, the session still valid, the pending secret still enables.
    expect((await status(jwt)).body).toEqual({ enabled: false, recoveryCodesLeft: 0 });
    expectRefused(await twoFactor(jwt, "/verify", { code: totpCode(secret) }), 409, "NOT_ENABLED");
    expectRefused(await twoFactor(jwt, "/disable", { password: PASSWORD, code: totpCode(secret) }), 409, "NOT_ENABLED");
    expectRefused(await twoFactor(jwt, "/recovery-codes", { code: totpCode(secret) }), 409, "NOT_ENABLED");
    const enable = await twoFactor(jwt, "/enable", { code: totpCode(secret) });
    expect(enable.status).toBe(200);
    expectRefused(await twoFactor(enable.body.jwt, "/setup", { password: PASSWORD }), 409, "ALREADY_ENABLED");
    expectRefused(await twoFactor(enable.body.jwt, "/enable", { code: totpCode(secret) }), 409, "ALREADY_ENABLED");
  });

  it("an account without a password (OAuth sign-in) cannot set up: 400 NO_PASSWORD", async () => {
    const sync = await fetch(`${cms.url}/api/oauth-sync`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${SYNC_SECRET}` },
      body: JSON.stringify({ provider: "github", subject: "gh-2fa", email: "oauth@example.com", emailVerified: true }),
    });
    expect(sync.status).toBe(201);
    const { jwt } = (await sync.json()) as Json;
    expectRefused(await twoFactor(jwt, "/setup", { password: "anything-At-all1" }), 400, "NO_PASSWORD");
  });
});

describe("who may call", () => {
  it("no JWT, a forged one, the API token: refused (401/403); a user's JWT reaches that user's settings only", async () => {
    const owner = await enrolled("owner@example.com");
    const intruder = await register("intruder@example.com");
    for (const jwt of [null, "not-a-jwt", `${owner.jwt}x`, cms.token]) {
      for (const [route, body] of [
        ["", undefined],
        ["/verify", { code: owner.recoveryCodes[0] }],
        ["/disable", { password: PASSWORD, code: owner.recoveryCodes[0] }],
      ] as const) {
        const answer = await twoFactor(jwt, route, body);
        // Strapi's own answers: 401 without a valid JWT; 403 where a credential was accepted
        // (the Public role, the API token) but lacks the route's action.
        expect([401, 403], `${route} ${String(jwt).slice(0, 10)}: ${answer.status}`).toContain(answer.status);
        expect(answer.body.data).toBeNull();
      }
    }
    // The intruder's JWT only ever sees and changes the intruder's own account.
    expect((await status(intruder)).body).toEqual({ enabled: false, recoveryCodesLeft: 0 });
    expectRefused(await twoFactor(intruder, "/verify", { code: owner.recoveryCodes[0] }), 409, "NOT_ENABLED");
    expectRefused(
      await twoFactor(intruder, "/disable", { password: PASSWORD, code: owner.recoveryCodes[0] }),
      409,
      "NOT_ENABLED",
    );
    // A body naming another user changes nothing: there is no such parameter.
    await twoFactor(intruder, "/setup", { password: PASSWORD, id: storedUser("owner@example.com").id });
    expect((await status(owner.jwt)).body).toEqual({ enabled: true, recoveryCodesLeft: 10 });
    expect((await twoFactor(owner.jwt, "/verify", { code: owner.recoveryCodes[0] })).status).toBe(200);
  });

  it("no API returns the private fields (/users/me, /auth/local, /users/:id); a register cannot set them", async () => {
    const { jwt } = await enrolled("private@example.com");
    const answers = [
      (await call("GET", "/api/users/me", jwt)).body,
      (await signIn("private@example.com")).body,
      (await call("GET", `/api/users/${storedUser("private@example.com").id}`, jwt)).body,
    ];
    for (const answer of answers) {
      const text = JSON.stringify(answer);
      for (const key of PRIVATE_KEYS) expect(text).not.toContain(key);
      expect(text).not.toMatch(/two_?factor/i);
    }
    expect(answers[0]!.email).toBe("private@example.com");
    expect(answers[1]!.user.email).toBe("private@example.com");
    // A register that tries to set them is refused whole (users-permissions' allowed fields).
    const planted = await call("POST", "/api/auth/local/register", null, {
      username: "planted@example.com",
      email: "planted@example.com",
      password: PASSWORD,
      twoFactorEnabled: true,
      twoFactorSecret: "v1.planted",
    });
    expect(planted.status).toBe(400);
    expect(storedUser("planted@example.com")).toBeUndefined();
  });

  it("an administrator's edit of the user neither shows nor changes them (2FA stays on)", async () => {
    const email = "edited@example.com";
    const { secret } = await enrolled(email);
    const admin = await StrapiAdmin.login(cms.url);
    const uid = "plugin::users-permissions.user";
    const query = new URLSearchParams({ "filters[$and][0][email][$eq]": email });
    const list = (await admin.call("GET", `/content-manager/collection-types/${uid}?${query}`)) as Json;
    const documentId = list.results[0].documentId as string;
    const userPath = `/content-manager/collection-types/${uid}/${documentId}`;
    const shown = JSON.stringify([list, await admin.call("GET", userPath)]);
    expect(shown).toContain(email);
    for (const key of PRIVATE_KEYS) expect(shown).not.toContain(key);
    // Nor the other private account fields (cms/src/plugins/accounts/server/users-permissions/hidden-account-fields.js).
    for (const key of ["emailChangeTokenHash", "emailChangeNewEmail"]) {
      expect(shown).not.toContain(key);
    }
    // Blocking and unblocking (the admin's form), even with planted values, keeps the second factor.
    await admin.setUserBlocked(email, true);
    await admin.call("PUT", userPath, { blocked: false, twoFactorEnabled: false, twoFactorSecret: null });
    const jwt = (await signIn(email)).body.jwt as string;
    expect((await status(jwt)).body).toEqual({ enabled: true, recoveryCodesLeft: 10 });
    expect((await twoFactor(jwt, "/verify", { code: totpCode(secret, Date.now() + STEP_MS) })).status).toBe(200);
  });
});
