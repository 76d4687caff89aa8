"use strict";

// Run with `npm test` in cms/ (node:test).
const test = require("node:test");
const assert = require("node:assert/strict");
const jsonwebtoken = require("jsonwebtoken");

const {
  END_SESSIONS,
  claimsOf,
  isLiveSession,
  endAllSessions,
  guardUserData,
  userLifecycles,
  wrapLogout,
} = require("../../../src/extensions/users-permissions/session-check");
const { PENDING_EMAIL_CHANGE } = require("../../../src/extensions/users-permissions/email-change-fields");
const { SECRET, setup } = require("./strapi-sessions-fake");

test("a token verifies while its session is live, with the claims stored on the session", async () => {
  const { jwt, sessions } = setup();
  const token = await jwt.issue({ id: 8, authAtMs: 1234, somethingElse: "dropped" });
  const payload = await jwt.verify(token);
  assert.equal(payload.id, 8);
  assert.equal(typeof payload.sessionId, "string");
  assert.equal(payload.authAtMs, 1234);
  assert.equal(payload.somethingElse, undefined);
  assert.equal(sessions().length, 1);
  assert.deepEqual(sessions()[0].metadata, { authAtMs: 1234 });
  // getToken (how every content-API request is authenticated) goes through the same check.
  const ctx = { request: { header: { authorization: `Bearer ${token}` } } };
  assert.equal((await jwt.getToken(ctx)).id, 8);
});

test("one session ended: its token is refused at once, the user's other session keeps working", async () => {
  const { strapi, jwt } = setup();
  const phone = await jwt.issue({ id: 8 });
  const laptop = await jwt.issue({ id: 8 });
  const { sessionId } = await jwt.verify(phone);
  // What Strapi's POST /api/auth/logout does for the access token's session.
  assert.equal(await strapi.sessionManager("users-permissions").revokeSessionById("8", sessionId), true);
  await assert.rejects(jwt.verify(phone), /Invalid token/);
  assert.equal((await jwt.verify(laptop)).id, 8);
});

test("every session ended: every token of the user refused, another user's untouched", async () => {
  const { strapi, jwt } = setup();
  const a = await jwt.issue({ id: 8 });
  const b = await jwt.issue({ id: 8 });
  const other = await jwt.issue({ id: 7 });
  await endAllSessions(strapi, 8);
  await assert.rejects(jwt.verify(a), /Invalid token/);
  await assert.rejects(jwt.verify(b), /Invalid token/);
  assert.equal((await jwt.verify(other)).id, 7);
});

test("a rotated-away or expired session, and a legacy (pre-upgrade) JWT, are refused", async () => {
  const { jwt, sessions } = setup();
  const rotated = await jwt.issue({ id: 8 });
  sessions()[0].status = "rotated";
  await assert.rejects(jwt.verify(rotated), /Invalid token/);
  const expired = await jwt.issue({ id: 8 });
  sessions()[1].expiresAt = new Date(Date.now() - 1000);
  await assert.rejects(jwt.verify(expired), /Invalid token/);
  const legacy = jsonwebtoken.sign({ id: 8, iatMs: Date.now() }, SECRET, { expiresIn: "30d" });
  await assert.rejects(jwt.verify(legacy), /Invalid token/);
});

test("isLiveSession: origin, status, owner, idle and absolute expiry", () => {
  const now = 1_800_000_000_000;
  const live = {
    origin: "users-permissions",
    status: "active",
    userId: "8",
    expiresAt: new Date(now + 1000).toISOString(),
    absoluteExpiresAt: new Date(now + 2000),
  };
  assert.equal(isLiveSession(live, 8, now), true);
  assert.equal(isLiveSession({ ...live, absoluteExpiresAt: null }, "8", now), true);
  assert.equal(isLiveSession(null, 8, now), false);
  assert.equal(isLiveSession({ ...live, origin: "admin" }, 8, now), false);
  assert.equal(isLiveSession({ ...live, status: "rotated" }, 8, now), false);
  assert.equal(isLiveSession({ ...live, userId: "9" }, 8, now), false);
  assert.equal(isLiveSession(live, undefined, now), false);
  assert.equal(isLiveSession({ ...live, expiresAt: new Date(now) }, 8, now), false);
  assert.equal(isLiveSession({ ...live, absoluteExpiresAt: new Date(now - 1) }, 8, now), false);
  assert.equal(isLiveSession({ ...live, expiresAt: "garbage" }, 8, now), false);
});

test("claimsOf keeps only the project's claims, well-formed", () => {
  assert.deepEqual(claimsOf({ authAtMs: 5, twoFactorPending: true, deviceName: "x" }), {
    authAtMs: 5,
    twoFactorPending: true,
  });
  assert.deepEqual(claimsOf({ authAtMs: "5", twoFactorPending: "yes" }), {});
  assert.deepEqual(claimsOf(null), {});
});

test("writes that end every session: the marker, a new password, blocking; each voids a pending change of email", () => {
  const marked = { [END_SESSIONS]: true };
  assert.equal(guardUserData(marked), true);
  assert.deepEqual(marked, { [PENDING_EMAIL_CHANGE]: null });
  const password = { password: "new one" };
  assert.equal(guardUserData(password), true);
  assert.equal(password[PENDING_EMAIL_CHANGE], null);
  assert.equal(guardUserData({ blocked: true }), true, "blocking ends the sessions");
  // A write that sets a pending change itself keeps it.
  const setting = { [END_SESSIONS]: true, [PENDING_EMAIL_CHANGE]: { tokenHash: "h" } };
  guardUserData(setting);
  assert.deepEqual(setting[PENDING_EMAIL_CHANGE], { tokenHash: "h" });
  for (const data of [{ blocked: false }, { password: "" }, { username: "x" }])
    assert.equal(guardUserData(data), false);
  // A JSON body cannot carry the Symbol.
  const forged = JSON.parse('{"endSessions": true, "sessionsValidAfter": null}');
  assert.equal(guardUserData(forged), false);
});

test("the user's lifecycles end the sessions after such a write (an admin's new password, a block)", async () => {
  const { strapi, jwt } = setup();
  const token = await jwt.issue({ id: 8 });
  const lifecycles = userLifecycles(() => strapi);
  const plain = { params: { data: { username: "renamed" } }, state: {}, result: { id: 8 } };
  await lifecycles.beforeUpdate(plain);
  await lifecycles.afterUpdate(plain);
  assert.equal((await jwt.verify(token)).id, 8, "a write that changes nothing of the kind ends nothing");
  const adminEdit = { params: { data: { password: "set by an admin" } }, state: {}, result: { id: 8 } };
  await lifecycles.beforeUpdate(adminEdit);
  await lifecycles.afterUpdate(adminEdit);
  await assert.rejects(jwt.verify(token), /Invalid token/);
  const second = await jwt.issue({ id: 8 });
  const many = { params: { where: { id: 8 }, data: { blocked: true } }, state: {} };
  await lifecycles.beforeUpdateMany(many);
  await lifecycles.afterUpdateMany(many);
  await assert.rejects(jwt.verify(second), /Invalid token/);
  const create = { params: { data: { [END_SESSIONS]: true, username: "n" } }, state: {} };
  lifecycles.beforeCreate(create);
  assert.deepEqual(create.params.data, { username: "n" });
});

test("the plugin's lifecycles are wired: a user update with the marker ends the sessions", async () => {
  const { plugin, jwt } = setup();
  const token = await jwt.issue({ id: 8 });
  const event = { params: { data: { [END_SESSIONS]: true } }, state: {}, result: { id: 8 } };
  await plugin.contentTypes.user.lifecycles.beforeUpdate(event);
  await plugin.contentTypes.user.lifecycles.afterUpdate(event);
  await assert.rejects(jwt.verify(token), /Invalid token/);
});

test("sign out everywhere (Strapi's logout, scope all) also voids a pending change of email", async () => {
  const writes = [];
  const strapi = { db: { query: () => ({ update: async (args) => writes.push(args) }) } };
  const controller = wrapLogout({ logout: async (ctx) => Object.assign(ctx, { status: 200 }) }, strapi);
  const all = { request: { body: { scope: "all" } }, state: { user: { id: 8 } } };
  await controller.logout(all);
  assert.deepEqual(writes, [{ where: { id: 8 }, data: { [END_SESSIONS]: true } }]);
  await controller.logout({ request: { body: {} }, state: { user: { id: 8 } } });
  assert.equal(writes.length, 1, "a single sign-out leaves the pending change");
});

test("legacy mode is left to Strapi (issue and verify as the plugin does)", async () => {
  const { jwt } = setup({ mode: "legacy-support" });
  const token = jwt.issue({ id: 8 });
  assert.equal(typeof token, "string");
  assert.equal((await jwt.verify(token)).id, 8);
});

test("at start: legacy mode is a clear error; a missing logout permission is a warning", async () => {
  const { checkSessionSetup } = require("../../../src/extensions/users-permissions/session-check");
  const warnings = [];
  const strapiWith = ({ mode = "refresh", permission = true } = {}) => ({
    config: { get: (key, fallback) => (key === "plugin::users-permissions.jwtManagement" ? mode : fallback) },
    log: { warn: (message) => warnings.push(message) },
    db: {
      query: (uid) => ({
        findOne: async ({ where }) => {
          if (uid === "plugin::users-permissions.role") return where.type === "authenticated" ? { id: 1 } : null;
          assert.deepEqual(where, { action: "plugin::users-permissions.auth.logout", role: { id: 1 } });
          return permission ? { id: 9 } : null;
        },
      }),
    },
  });
  await assert.rejects(checkSessionSetup(strapiWith({ mode: "legacy-support" })), /jwtManagement: 'refresh'/);
  assert.equal(await checkSessionSetup(strapiWith()), true);
  assert.deepEqual(warnings, []);
  assert.equal(await checkSessionSetup(strapiWith({ permission: false })), false);
  assert.match(warnings[0], /lacks the users-permissions permission Auth › logout/);
});
