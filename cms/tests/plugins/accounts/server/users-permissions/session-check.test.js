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
  wrapLogout,
  assertRefreshMode,
  extendSessionCheck,
} = require("../../../../../src/plugins/accounts/server/users-permissions/session-check");
const {
  PENDING_EMAIL_CHANGE,
  extendEmailChange,
} = require("../../../../../src/plugins/accounts/server/users-permissions/email-change-fields");
const { SECRET, setup } = require("./strapi-sessions-fake");
const { fakePoints } = require("./fake-points");

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

test("the write guard ends the sessions once such a write is done (an admin's new password, a block)", async () => {
  const { points, jwt } = setup();
  const token = await jwt.issue({ id: 8 });
  await points.update(8, { username: "renamed" });
  assert.equal((await jwt.verify(token)).id, 8, "a write that changes nothing of the kind ends nothing");
  await points.update(8, { password: "set by an admin" });
  await assert.rejects(jwt.verify(token), /Invalid token/);
  const second = await jwt.issue({ id: 8 });
  const other = await jwt.issue({ id: 7 });
  // An updateMany: the users its where matches lose their sessions; the others keep theirs.
  await points.updateMany({ id: { $in: [8] } }, { blocked: true });
  await assert.rejects(jwt.verify(second), /Invalid token/);
  assert.equal((await jwt.verify(other, { allowTwoFactorPending: true })).id, 7);
  // The marker, through the same guard: ends them; a create only drops it.
  const third = await jwt.issue({ id: 8 });
  await points.update(8, { [END_SESSIONS]: true });
  await assert.rejects(jwt.verify(third), /Invalid token/);
  const created = points.write({ [END_SESSIONS]: true, username: "n" });
  assert.equal(created[END_SESSIONS], undefined);
  assert.equal(created.username, "n");
});

test("its guard runs before the email change's: a write that ends the sessions clears the pending change", () => {
  const points = fakePoints({ services: { jwt: {} }, controllers: { auth: {} } });
  extendSessionCheck(points);
  extendEmailChange(points);
  const data = points.write({ [END_SESSIONS]: true, emailChangeNewEmail: "forged@x.test" });
  assert.deepEqual(data, {
    emailChangeTokenHash: null,
    emailChangeNewEmail: null,
    emailChangeExpiresAt: null,
    emailChangeSessionId: null,
  });
  assert.deepEqual(points.write({ username: "x" }), { username: "x" }, "any other write leaves the change alone");
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

test("at start (the plugin's register): any mode but refresh is a clear error", () => {
  const strapiWith = (mode) => ({
    config: { get: (key, fallback) => (key === "plugin::users-permissions.jwtManagement" ? mode : fallback) },
  });
  assert.throws(() => assertRefreshMode(strapiWith("legacy-support")), /jwtManagement: 'refresh'/);
  assert.throws(() => assertRefreshMode(strapiWith(undefined)), /jwtManagement: 'refresh'/);
  assert.doesNotThrow(() => assertRefreshMode(strapiWith("refresh")));
});
