"use strict";

// Run with `npm test` in cms/ (node:test).
const test = require("node:test");
const assert = require("node:assert/strict");
const crypto = require("node:crypto");

const {
  checkAccountApiRequest,
  isSiteOnlyPath,
  normalizePath,
} = require("../../../../../../src/plugins/accounts/server/middlewares/account-api-guard/rules");
const middleware = require("../../../../../../src/plugins/accounts/server/middlewares/account-api-guard/index");

const SECRET = "site-secret-0123456789abcdef";

const GUARDED = [
  "/api/auth/local",
  "/api/auth/local/register",
  "/api/auth/forgot-password",
  "/api/auth/reset-password",
  "/api/auth/change-password",
  "/api/auth/send-email-confirmation",
  "/api/auth/email-confirmation",
  "/api/connect/github",
  "/api/connect/google/callback",
  "/api/auth/github/callback",
  "/api/auth/refresh",
];

const SPELLINGS = [
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
  "/api/./auth/local",
  "/api/users/../auth/local",
  "\\api\\auth\\local",
  "/api/auth/local%20",
  "/api/connect",
  "/API/CONNECT/GitHub/",
];

const OPEN = [
  "/api/users/me",
  "/api/account-sessions/current",
  "/api/account-two-factor/verify",
  "/api/oauth-sync",
  "/api/pages",
  "/api/authors",
  "/api/connections",
  "/admin/login",
  "/_health",
  "/",
  "",
];

test("every users-permissions account route, in every spelling, is site-only; nothing else is", () => {
  for (const path of [...GUARDED, ...SPELLINGS]) assert.equal(isSiteOnlyPath(path), true, path);
  for (const path of OPEN) assert.equal(isSiteOnlyPath(path), false, path);
});

test("normalizePath: decoded, one slash, dot segments resolved, lower case, no trailing slash", () => {
  assert.equal(normalizePath("//API/auth/%6Cocal/./x/../"), "/api/auth/local");
  assert.equal(normalizePath("/api/auth/local?x=1"), "/api/auth/local");
  assert.equal(normalizePath("/api/auth/%zz"), "/api/auth/%zz", "a malformed escape stays as it is");
});

test("no secret configured: every request is open", () => {
  for (const path of GUARDED)
    assert.equal(checkAccountApiRequest({ path, header: undefined, secret: undefined }), "open");
});

test("with the secret: the right header passes, a missing or wrong one is refused", () => {
  for (const path of [...GUARDED, ...SPELLINGS]) {
    assert.equal(checkAccountApiRequest({ path, header: SECRET, secret: SECRET }), "ok", path);
    assert.equal(checkAccountApiRequest({ path, header: [SECRET], secret: SECRET }), "ok", path);
    for (const header of [undefined, "", SECRET.slice(0, -1), `${SECRET}x`, SECRET.toUpperCase(), `Bearer ${SECRET}`]) {
      assert.equal(checkAccountApiRequest({ path, header, secret: SECRET }), "refused", `${path} ${header}`);
    }
  }
  for (const path of OPEN) assert.equal(checkAccountApiRequest({ path, header: undefined, secret: SECRET }), "open");
});

test("the header is compared with crypto.timingSafeEqual, also when it is missing", (t) => {
  const spy = t.mock.method(crypto, "timingSafeEqual");
  checkAccountApiRequest({ path: "/api/auth/local", header: SECRET, secret: SECRET });
  checkAccountApiRequest({ path: "/api/auth/local", header: "wrong", secret: SECRET });
  checkAccountApiRequest({ path: "/api/auth/local", header: undefined, secret: SECRET });
  assert.equal(spy.mock.callCount(), 3);
  for (const call of spy.mock.calls)
    assert.deepEqual(
      call.arguments.map((b) => b.length),
      [32, 32],
    );
});

const fakeStrapi = (accountApiSecret, warnings) => ({
  config: { get: (key) => (key === "plugin::accounts" ? { accountApiSecret } : undefined) },
  log: { warn: (line) => warnings.push(line) },
});

function run(guard, path, headers = {}) {
  const ctx = { path, get: (name) => headers[name.toLowerCase()] ?? "" };
  let called = false;
  return Promise.resolve(
    guard(ctx, async () => {
      called = true;
    }),
  ).then(() => ({ ctx, called }));
}

test("middleware: a 403 ForbiddenError with details.code SITE_ONLY without the header; the right one goes on", async () => {
  const warnings = [];
  const guard = middleware({}, { strapi: fakeStrapi(SECRET, warnings) });
  assert.deepEqual(warnings, []);
  await assert.rejects(run(guard, "/API/auth/local/"), (error) => {
    assert.equal(error.name, "ForbiddenError");
    assert.deepEqual(error.details, { code: "SITE_ONLY" });
    assert.match(error.message, /site's server only/);
    return true;
  });
  assert.equal((await run(guard, "/api/auth/local", { "x-site-secret": SECRET })).called, true);
  assert.equal((await run(guard, "/api/users/me")).called, true);
});

test("middleware without the secret: one warning at start, every request goes on", async () => {
  const warnings = [];
  const guard = middleware({}, { strapi: fakeStrapi("", warnings) });
  assert.equal(warnings.length, 1);
  assert.match(warnings[0], /CMS_ACCOUNT_API_SECRET is not set/);
  assert.equal((await run(guard, "/api/auth/local")).called, true);
  assert.equal(warnings.length, 1);
});
