import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";

import getPort from "../support/free-port.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { waitForMail } from "../support/cms-mail.ts";
import { startCms, type CmsHandle } from "../support/cms-server.ts";

/**
 * POST /api/oauth-sync on the real Strapi: only the front end (Bearer CMS_OAUTH_SYNC_SECRET)
 * may call it; it finds or creates the users-permissions user for an OAuth sign-in, identified
 * by the provider's subject id (never by email alone), and returns a CMS JWT that works on
 * /api/users/me.
 */

const [PORT, PORT_NO_SECRET] = [await getPort(), await getPort()];
const TIMEOUT = 240_000;
const SECRET = "test-oauth-sync-secret-0123456789abcdef";

type Json = Record<string, any>;

async function post(cms: CmsHandle, apiPath: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${cms.url}${apiPath}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: (text ? JSON.parse(text) : {}) as Json };
}

const sync = (cms: CmsHandle, body: unknown, secret: string | null = SECRET) =>
  post(cms, "/api/oauth-sync", body, secret === null ? {} : { authorization: `Bearer ${secret}` });

async function me(cms: CmsHandle, jwt: string) {
  const response = await fetch(`${cms.url}/api/users/me`, { headers: { authorization: `Bearer ${jwt}` } });
  return { status: response.status, body: (await response.json()) as Json };
}

function expectStrapiError(body: Json, status: number, name: string) {
  expect(body.data).toBeNull();
  expect(body.error).toMatchObject({ status, name });
  expect(body.error.message).toEqual(expect.any(String));
  expect(body.error).toHaveProperty("details");
}

function expectSanitized(user: Json) {
  for (const key of ["password", "resetPasswordToken", "confirmationToken"]) expect(user).not.toHaveProperty(key);
}

const admins = new Map<CmsHandle, ReturnType<typeof adminLogin>>();
/** The CMS admin API (content-manager, plugin settings); one login per CMS (Strapi rate-limits them). */
function adminApi(cms: CmsHandle) {
  let admin = admins.get(cms);
  if (!admin) admins.set(cms, (admin = adminLogin(cms)));
  return admin;
}

async function adminLogin(cms: CmsHandle) {
  const login = await post(cms, "/admin/login", { email: "admin@example.com", password: "Admin12345" });
  expect(login.status).toBe(200);
  const headers = { authorization: `Bearer ${login.body.data.token}`, "content-type": "application/json" };
  const call = async (method: string, apiPath: string, body?: unknown) => {
    const response = await fetch(`${cms.url}${apiPath}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    expect(response.ok, `${method} ${apiPath}: ${response.status} ${text}`).toBe(true);
    return (text ? JSON.parse(text) : {}) as Json;
  };
  const users = "/content-manager/collection-types/plugin::users-permissions.user";
  return {
    call,
    async usersWithEmail(email: string): Promise<Json[]> {
      return (await call("GET", `${users}?filters[$and][0][email][$eqi]=${encodeURIComponent(email)}`))
        .results as Json[];
    },
    async updateUser(id: number, data: Json) {
      const [user] = (await call("GET", `${users}?filters[id][$eq]=${id}`)).results as Json[];
      return call("PUT", `${users}/${user!.documentId}`, data);
    },
    async deleteUser(id: number) {
      const [user] = (await call("GET", `${users}?filters[id][$eq]=${id}`)).results as Json[];
      return call("DELETE", `${users}/${user!.documentId}`);
    },
  };
}

describe("POST /api/oauth-sync (real Strapi)", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "cms-oauth-sync-"));
  let cms: CmsHandle | undefined;

  beforeAll(async () => {
    cms = await startCms({
      port: PORT,
      dbFile: path.join(dir, "cms.db"),
      fresh: true,
      logFile: path.join(dir, "cms.log"),
      env: { CMS_OAUTH_SYNC_SECRET: SECRET, CLIENT_URL: "http://127.0.0.1:3999", CMS_MAIL_DIR: path.join(dir, "mail") },
    });
  }, TIMEOUT);

  afterAll(async () => {
    await cms?.stop();
    rmSync(dir, { recursive: true, force: true });
  }, TIMEOUT);

  it("refuses a missing or wrong secret with 401, before looking at the body", async () => {
    const body = { provider: "github", subject: "gh-nobody", email: "nobody@example.com", emailVerified: true };
    for (const secret of [null, "wrong", `${SECRET}x`, SECRET.slice(0, -1)]) {
      const { status, body: answer, headers } = await sync(cms!, body, secret);
      expect(status, String(secret)).toBe(401);
      expectStrapiError(answer, 401, "UnauthorizedError");
      expect(headers.get("www-authenticate")).toBe("Bearer");
    }
    // A wrong secret with an invalid body is still a 401, not a 400.
    expect((await sync(cms!, { nonsense: true }, "wrong")).status).toBe(401);
    // The CMS user JWT or the read-only API token are not the secret either.
    expect((await sync(cms!, body, cms!.token)).status).toBe(401);
    // Nothing was created.
    const created = await sync(cms!, body);
    expect(created.status).toBe(201);
  });

  it("rejects a bad body with 400 listing every problem", async () => {
    const { status, body } = await sync(cms!, {
      provider: "Git Hub",
      email: "not-an-email",
      emailVerified: "yes",
      name: "n".repeat(101),
      role: 3,
    });
    expect(status).toBe(400);
    expectStrapiError(body, 400, "ValidationError");
    const paths = (body.error.details.errors as Json[]).map((e) => e.path.join(".")).sort();
    expect(paths).toEqual(["email", "emailVerified", "name", "provider", "role", "subject"]);

    expect(
      (await sync(cms!, { provider: "local", subject: "1", email: "a@example.com", emailVerified: true })).status,
    ).toBe(400);
    expect(
      (await sync(cms!, { provider: "github", email: "a@example.com", emailVerified: true })).body.error.details
        .errors[0].path,
    ).toEqual(["subject"]);
    expect((await sync(cms!, "[1,2]")).status).toBe(400);
    expect(
      (await sync(cms!, { email: "a@example.com", emailVerified: true })).body.error.details.errors[0].path,
    ).toEqual(["provider"]);
  });

  let adaId: number;
  let adaJwt: string;

  it("creates a new user (201) whose JWT works on /api/users/me", async () => {
    const { status, body } = await sync(cms!, {
      provider: "github",
      subject: "gh-ada",
      email: "Ada.Lovelace@Example.com",
      emailVerified: true,
      name: "Ada Lovelace",
    });
    expect(status).toBe(201);
    expect(body).toMatchObject({ created: true, linked: false, jwt: expect.any(String) });
    expect(body.user).toMatchObject({
      id: expect.any(Number),
      email: "ada.lovelace@example.com",
      username: "ada-lovelace",
      provider: "github",
      confirmed: true,
      blocked: false,
    });
    expectSanitized(body.user);
    adaId = body.user.id;
    adaJwt = body.jwt;

    const profile = await me(cms!, adaJwt);
    expect(profile.status).toBe(200);
    expect(profile.body).toMatchObject({ id: adaId, email: "ada.lovelace@example.com", provider: "github" });
    expectSanitized(profile.body);
  });

  it("returns the same user (200) on the next sign-in of that provider account, whatever its email says", async () => {
    for (const [email, emailVerified] of [
      ["ada.lovelace@example.com", true],
      ["ada.lovelace@example.com", false],
      ["ada@new-address.example", true],
    ] as const) {
      const { status, body } = await sync(cms!, { provider: "github", subject: "gh-ada", email, emailVerified });
      expect(status).toBe(200);
      expect(body).toMatchObject({ created: false, linked: false });
      expect(body.user.id).toBe(adaId);
      expect(body.user.email).toBe("ada.lovelace@example.com");
      expectSanitized(body.user);
      expect((await me(cms!, body.jwt)).body.id).toBe(adaId);
    }
    // Back to the address the account has (the link records what the provider said last).
    expect(
      (
        await sync(cms!, {
          provider: "github",
          subject: "gh-ada",
          email: "ada.lovelace@example.com",
          emailVerified: true,
        })
      ).status,
    ).toBe(200);
  });

  it("does not let another account at the same provider, with the same unverified email, into the user", async () => {
    // The old rule "same provider and same email → that user" let anyone whose provider
    // account merely claims the address in.
    const { status, body } = await sync(cms!, {
      provider: "github",
      subject: "gh-mallory",
      email: "ada.lovelace@example.com",
      emailVerified: false,
    });
    expect(status).toBe(409);
    expectStrapiError(body, 409, "ConflictError");
    expect(body.error.details).toMatchObject({ code: "EMAIL_NOT_VERIFIED" });
    expect(body).not.toHaveProperty("jwt");
  });

  it("refresh signs in through an existing link only: never creates or links", async () => {
    const linked = await sync(cms!, {
      provider: "github",
      subject: "gh-ada",
      email: "ada.lovelace@example.com",
      emailVerified: false,
      refresh: true,
    });
    expect(linked.status).toBe(200);
    expect(linked.body.user.id).toBe(adaId);
    const unknown = await sync(cms!, {
      provider: "github",
      subject: "gh-nobody-yet",
      email: "fresh@example.com",
      emailVerified: true,
      refresh: true,
    });
    expect(unknown.status).toBe(404);
    expectStrapiError(unknown.body, 404, "NotFoundError");
    const admin = await adminApi(cms!);
    expect(await admin.usersWithEmail("fresh@example.com")).toEqual([]);
  });

  it("gives a second person with the same name a different username", async () => {
    const { status, body } = await sync(cms!, {
      provider: "google",
      subject: "g-ada-l",
      email: "ada.l@example.org",
      emailVerified: true,
      name: "Ada Lovelace",
    });
    expect(status).toBe(201);
    expect(body.user.username).toBe("ada-lovelace-2");
    expect(body.user.provider).toBe("google");
  });

  it("refuses an unverified email of a registered password account with 409 and what to do", async () => {
    const registered = await post(cms!, "/api/auth/local/register", {
      username: "bob",
      email: "bob@example.com",
      password: "Passw0rd!123",
    });
    expect(registered.status, JSON.stringify(registered.body)).toBe(200);

    const { status, body } = await sync(cms!, {
      provider: "github",
      subject: "gh-bob",
      email: "BOB@example.com",
      emailVerified: false,
      name: "Bob",
    });
    expect(status).toBe(409);
    expectStrapiError(body, 409, "ConflictError");
    expect(body.error.message).toBe(
      "An account with this email already exists. Sign in with your password, then link github from your account page.",
    );
    expect(body.error.details).toEqual({ code: "EMAIL_NOT_VERIFIED", provider: "github", existingProvider: "local" });
  });

  // Issue 11, point 4 (account pre-hijack): registration sends no confirmation mail, so an
  // attacker registers someone's address with a password; that person's later sign-in with a
  // provider that verified the address must not land in the attacker's account.
  it("pre-hijack: a password account nobody confirmed is not linked to the owner's verified sign-in", async () => {
    const attacker = await post(cms!, "/api/auth/local/register", {
      username: "victim",
      email: "victim@example.com",
      password: "Attacker-pw-1",
    });
    expect(attacker.status).toBe(200);
    const attackerId = attacker.body.user.id as number;

    const victim = await sync(cms!, {
      provider: "google",
      subject: "g-victim",
      email: "victim@example.com",
      emailVerified: true,
      name: "Victim",
    });
    expect(victim.status).toBe(409);
    expectStrapiError(victim.body, 409, "ConflictError");
    expect(victim.body.error.details).toEqual({
      code: "ACCOUNT_EMAIL_NOT_CONFIRMED",
      provider: "google",
      existingProvider: "local",
    });
    expect(victim.body).not.toHaveProperty("jwt");
    // Nothing links the victim's Google account to the attacker's user.
    const refresh = await sync(cms!, {
      provider: "google",
      subject: "g-victim",
      email: "victim@example.com",
      emailVerified: true,
      refresh: true,
    });
    expect(refresh.status).toBe(404);
    // The password still opens the account it was registered with, and no other.
    const login = await post(cms!, "/api/auth/local", { identifier: "victim@example.com", password: "Attacker-pw-1" });
    expect(login.body.user.id).toBe(attackerId);
  });

  it("concurrent first sign-ins of one provider account create one user", async () => {
    const body = {
      provider: "github",
      subject: "gh-twice",
      email: "twice@example.com",
      emailVerified: true,
      name: "Twice",
    };
    const answers = await Promise.all(Array.from({ length: 6 }, () => sync(cms!, body)));
    for (const answer of answers) expect([200, 201], JSON.stringify(answer.body)).toContain(answer.status);
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(1);
    expect(new Set(answers.map((answer) => answer.body.user.id)).size).toBe(1);
    const admin = await adminApi(cms!);
    expect(await admin.usersWithEmail("twice@example.com")).toHaveLength(1);
    // On SQLite requests do not interleave inside the service; on PostgreSQL they do, and the
    // database's unique index on (provider, subject) is what refuses the second link.
    const Database = createRequire(path.resolve("cms/package.json"))("better-sqlite3") as new (file: string) => {
      prepare(sql: string): { run(...values: unknown[]): unknown };
      close(): void;
    };
    const db = new Database(cms!.dbFile);
    try {
      const insert = db.prepare(
        "INSERT INTO oauth_identities (document_id, provider, subject, email_verified) VALUES (?, ?, ?, 1)",
      );
      expect(() => insert.run("duplicate-link", "github", "gh-twice")).toThrow(
        /UNIQUE constraint failed: oauth_identities\.provider, oauth_identities\.subject/,
      );
    } finally {
      db.close();
    }
  });

  it("a provider account whose user an administrator deleted starts over with a new user", async () => {
    const first = await sync(cms!, {
      provider: "github",
      subject: "gh-gone",
      email: "gone@example.com",
      emailVerified: true,
    });
    expect(first.status).toBe(201);
    const admin = await adminApi(cms!);
    await admin.deleteUser(first.body.user.id);
    expect((await me(cms!, first.body.jwt)).status).toBe(401);
    // A refresh (a session made before the deletion) does not bring it back...
    expect(
      (
        await sync(cms!, {
          provider: "github",
          subject: "gh-gone",
          email: "gone@example.com",
          emailVerified: false,
          refresh: true,
        })
      ).status,
    ).toBe(404);
    expect(await admin.usersWithEmail("gone@example.com")).toEqual([]);
    // ...a new sign-in with the provider is a new registration.
    const again = await sync(cms!, {
      provider: "github",
      subject: "gh-gone",
      email: "gone@example.com",
      emailVerified: true,
    });
    expect(again.status).toBe(201);
    expect(again.body.user.id).not.toBe(first.body.user.id);
  });

  it("email confirmation on: a verified provider email is linked to a password account once confirmed", async () => {
    const admin = await adminApi(cms!);
    const { settings } = await admin.call("GET", "/users-permissions/advanced");
    await admin.call("PUT", "/users-permissions/advanced", { ...settings, email_confirmation: true });
    try {
      const before = Date.now();
      const registered = await post(cms!, "/api/auth/local/register", {
        username: "carol",
        email: "carol@example.com",
        password: "Carol-pw-123",
      });
      expect(registered.status, JSON.stringify(registered.body)).toBe(200);
      const carolId = registered.body.user.id as number;
      expect(registered.body.user.confirmed).toBe(false);

      // Not confirmed yet: not linked (and not marked confirmed by the provider's say-so either).
      const early = await sync(cms!, {
        provider: "github",
        subject: "gh-carol",
        email: "carol@example.com",
        emailVerified: true,
      });
      expect(early.status).toBe(409);
      expect(early.body.error.details.code).toBe("ACCOUNT_EMAIL_NOT_CONFIRMED");
      expect(
        (await post(cms!, "/api/auth/local", { identifier: "carol@example.com", password: "Carol-pw-123" })).status,
      ).toBe(400);

      const mail = await waitForMail(path.join(dir, "mail"), "carol@example.com", { after: before });
      // The mail links to the site's /confirm-email, which asks the CMS with the code (as here).
      const code = /https?:\/\/[^\s"'<>]+\/confirm-email\?confirmation=([0-9a-f]+)/.exec(mail.text || mail.html)?.[1];
      expect(code, mail.text).toBeDefined();
      const confirmed = await fetch(`${cms!.url}/api/auth/email-confirmation?confirmation=${code}`, {
        redirect: "manual",
      });
      expect([301, 302]).toContain(confirmed.status);

      const linked = await sync(cms!, {
        provider: "github",
        subject: "gh-carol",
        email: "carol@example.com",
        emailVerified: true,
      });
      expect(linked.status).toBe(200);
      expect(linked.body).toMatchObject({ created: false, linked: true });
      expect(linked.body.user).toMatchObject({ id: carolId, provider: "local", confirmed: true });
      // From now on the link is used; the password keeps working.
      const next = await sync(cms!, {
        provider: "github",
        subject: "gh-carol",
        email: "carol@example.com",
        emailVerified: false,
      });
      expect(next.body).toMatchObject({ created: false, linked: false });
      expect(next.body.user.id).toBe(carolId);
      expect(
        (await post(cms!, "/api/auth/local", { identifier: "carol@example.com", password: "Carol-pw-123" })).body.user
          .id,
      ).toBe(carolId);
    } finally {
      await admin.call("PUT", "/users-permissions/advanced", settings);
    }
  });

  it("links another provider account with a verified email to a user whose address a provider verified", async () => {
    const { status, body } = await sync(cms!, {
      provider: "google",
      subject: "g-ada",
      email: "ada.lovelace@example.com",
      emailVerified: true,
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({ created: false, linked: true });
    expect(body.user.id).toBe(adaId);
  });

  it("refuses a blocked user with 403 (blocked through the admin API)", async () => {
    await (await adminApi(cms!)).updateUser(adaId, { blocked: true });

    for (const [provider, subject, emailVerified] of [
      ["github", "gh-ada", true],
      ["github", "gh-ada", false],
      ["google", "g-ada", true],
      ["google", "g-someone-new", true],
    ] as const) {
      const { status, body } = await sync(cms!, {
        provider,
        subject,
        email: "ada.lovelace@example.com",
        emailVerified,
      });
      expect(status).toBe(403);
      expectStrapiError(body, 403, "ForbiddenError");
      expect(body.error.message).toBe("This account has been blocked");
      expect(body).not.toHaveProperty("jwt");
    }
    // The JWT issued before the block no longer works either.
    expect((await me(cms!, adaJwt)).status).toBe(401);
  });
});

describe("POST /api/oauth-sync without CMS_OAUTH_SYNC_SECRET (real Strapi)", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "cms-oauth-sync-nosecret-"));
  let cms: CmsHandle | undefined;

  beforeAll(async () => {
    cms = await startCms({
      port: PORT_NO_SECRET,
      dbFile: path.join(dir, "cms.db"),
      fresh: true,
      logFile: path.join(dir, "cms.log"),
      // An empty value counts as unset (and wins over one in the environment of the test run).
      env: { CMS_OAUTH_SYNC_SECRET: "", CMS_MAIL_DIR: path.join(dir, "mail") },
    });
  }, TIMEOUT);

  afterAll(async () => {
    await cms?.stop();
    rmSync(dir, { recursive: true, force: true });
  }, TIMEOUT);

  it("answers 503 with a clear message, whatever the caller sends", async () => {
    for (const secret of [null, "", "anything", SECRET]) {
      const { status, body } = await sync(
        cms!,
        { provider: "github", subject: "gh-ada", email: "ada@example.com", emailVerified: true },
        secret,
      );
      expect(status).toBe(503);
      expectStrapiError(body, 503, "ServiceUnavailableError");
      expect(body.error.message).toMatch(/CMS_OAUTH_SYNC_SECRET/);
    }
  });
});
