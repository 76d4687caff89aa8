import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { startCms, type CmsHandle } from "../support/cms-server.ts";

/**
 * POST /api/oauth-sync on the real Strapi: only the front end (Bearer CMS_OAUTH_SYNC_SECRET)
 * may call it; it finds or creates the users-permissions user for an OAuth sign-in and
 * returns a CMS JWT that works on /api/users/me.
 */

const PORT = 3311;
const PORT_NO_SECRET = 3312;
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
    const body = { provider: "github", email: "nobody@example.com", emailVerified: true };
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
    const { status, body } = await sync(cms!, { provider: "Git Hub", email: "not-an-email", emailVerified: "yes", name: "n".repeat(101), role: 3 });
    expect(status).toBe(400);
    expectStrapiError(body, 400, "ValidationError");
    const paths = (body.error.details.errors as Json[]).map((e) => e.path.join(".")).sort();
    expect(paths).toEqual(["email", "emailVerified", "name", "provider", "role"]);

    expect((await sync(cms!, { provider: "local", email: "a@example.com", emailVerified: true })).status).toBe(400);
    expect((await sync(cms!, "[1,2]")).status).toBe(400);
    expect((await sync(cms!, { email: "a@example.com", emailVerified: true })).body.error.details.errors[0].path).toEqual(["provider"]);
  });

  let adaId: number;
  let adaJwt: string;

  it("creates a new user (201) whose JWT works on /api/users/me", async () => {
    const { status, body } = await sync(cms!, { provider: "github", email: "Ada.Lovelace@Example.com", emailVerified: true, name: "Ada Lovelace" });
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

  it("returns the same user (200) on the next sign-in with the same provider, verified or not", async () => {
    for (const emailVerified of [true, false]) {
      const { status, body } = await sync(cms!, { provider: "github", email: "ada.lovelace@example.com", emailVerified });
      expect(status).toBe(200);
      expect(body).toMatchObject({ created: false, linked: false });
      expect(body.user.id).toBe(adaId);
      expectSanitized(body.user);
      expect((await me(cms!, body.jwt)).body.id).toBe(adaId);
    }
  });

  it("gives a second person with the same name a different username", async () => {
    const { status, body } = await sync(cms!, { provider: "google", email: "ada.l@example.org", emailVerified: true, name: "Ada Lovelace" });
    expect(status).toBe(201);
    expect(body.user.username).toBe("ada-lovelace-2");
    expect(body.user.provider).toBe("google");
  });

  let bobId: number;

  it("refuses an unverified email of a registered password account with 409 and what to do", async () => {
    const registered = await post(cms!, "/api/auth/local/register", { username: "bob", email: "bob@example.com", password: "Passw0rd!123" });
    expect(registered.status, JSON.stringify(registered.body)).toBe(200);
    bobId = registered.body.user.id;

    const { status, body } = await sync(cms!, { provider: "github", email: "BOB@example.com", emailVerified: false, name: "Bob" });
    expect(status).toBe(409);
    expectStrapiError(body, 409, "ConflictError");
    expect(body.error.message).toBe(
      "An account with this email already exists. Sign in with your password, then link github from your account page.",
    );
    expect(body.error.details).toEqual({ reason: "email_not_verified", provider: "github", existingProvider: "local" });
  });

  it("links a verified email to the existing password account (200 linked), which keeps its password", async () => {
    const { status, body } = await sync(cms!, { provider: "github", email: "bob@example.com", emailVerified: true, name: "Bob" });
    expect(status).toBe(200);
    expect(body).toMatchObject({ created: false, linked: true });
    expect(body.user).toMatchObject({ id: bobId, username: "bob", provider: "local" });
    expectSanitized(body.user);
    expect((await me(cms!, body.jwt)).body.id).toBe(bobId);

    const login = await post(cms!, "/api/auth/local", { identifier: "bob@example.com", password: "Passw0rd!123" });
    expect(login.status).toBe(200);
    expect(login.body.user.id).toBe(bobId);
  });

  it("refuses a blocked user with 403 (blocked through the admin API)", async () => {
    const login = await post(cms!, "/admin/login", { email: "admin@example.com", password: "Admin12345" });
    expect(login.status).toBe(200);
    const admin = { authorization: `Bearer ${login.body.data.token}`, "content-type": "application/json" };
    const base = `${cms!.url}/content-manager/collection-types/plugin::users-permissions.user`;
    const found = await fetch(`${base}?filters[id][$eq]=${adaId}`, { headers: admin });
    const { results } = (await found.json()) as { results: Json[] };
    expect(results).toHaveLength(1);
    const blocked = await fetch(`${base}/${results[0]!.documentId}`, { method: "PUT", headers: admin, body: JSON.stringify({ blocked: true }) });
    expect(blocked.status, await blocked.clone().text()).toBe(200);

    for (const [provider, emailVerified] of [["github", true], ["google", true], ["github", false]] as const) {
      const { status, body } = await sync(cms!, { provider, email: "ada.lovelace@example.com", emailVerified });
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
      const { status, body } = await sync(cms!, { provider: "github", email: "ada@example.com", emailVerified: true }, secret);
      expect(status).toBe(503);
      expectStrapiError(body, 503, "ServiceUnavailableError");
      expect(body.error.message).toMatch(/CMS_OAUTH_SYNC_SECRET/);
    }
  });
});
