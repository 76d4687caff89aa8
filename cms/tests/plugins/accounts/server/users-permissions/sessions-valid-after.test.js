"use strict";

// Run with `npm test` in cms/ (node:test).
const test = require("node:test");
const assert = require("node:assert/strict");
const path = require("node:path");

const {
  FIELD,
  withIssuedAtMs,
  issuedAtMs,
  issuedBeforeValidAfter,
  guardUserData,
  userLifecycles,
  wrapJwtService,
  extendUsersPermissions,
} = require("../../../../../src/plugins/accounts/server/users-permissions/sessions-valid-after");
const { fakePoints } = require("./fake-points");

// The plugin's own JWT service (the package's exports do not list it: by file).
const pluginDir = path.dirname(require.resolve("@strapi/plugin-users-permissions/package.json"));
const createPluginJwtService = require(path.join(pluginDir, "dist/server/services/jwt.js")).__require();

/** A Strapi with the plugin's config and one user table, enough for the JWT service. */
function fakeStrapi(users) {
  const config = {
    "plugin::users-permissions.jwtManagement": "legacy-support",
    "plugin::users-permissions.jwt": { expiresIn: "30d" },
    "plugin::users-permissions.jwtSecret": "unit-test-secret",
  };
  return {
    config: { get: (key, fallback) => (key in config ? config[key] : fallback) },
    db: {
      query: (uid) => {
        assert.equal(uid, "plugin::users-permissions.user");
        return {
          async findOne({ where, select }) {
            const user = users.get(where.id);
            if (!user) return null;
            return Object.fromEntries(select.map((key) => [key, user[key]]));
          },
        };
      },
    },
  };
}

function setup(start = Date.parse("2026-03-01T10:00:00.400Z")) {
  const users = new Map([[7, { id: 7, [FIELD]: null }]]);
  const strapi = fakeStrapi(users);
  const clock = { now: start };
  const service = wrapJwtService(createPluginJwtService({ strapi }), { strapi, now: () => clock.now });
  return { users, service, clock };
}

test("a JWT issued before a password change is refused, in the same second too; the change's own is not", async (t) => {
  const { users, service, clock } = setup();
  // jsonwebtoken takes `iat` from the real clock; pin it to the fake one.
  t.mock.timers.enable({ apis: ["Date"], now: clock.now });
  const stolen = service.issue({ id: 7 });
  assert.equal((await service.verify(stolen)).id, 7);

  clock.now += 300; // same second
  t.mock.timers.setTime(clock.now);
  const user = users.get(7);
  const data = { password: "New-passw0rd!" };
  userLifecycles(() => clock.now).beforeUpdate({ params: { data } });
  user[FIELD] = data[FIELD].toISOString(); // what the database hands back
  const fresh = service.issue({ id: 7 });

  await assert.rejects(service.verify(stolen), /Invalid token/);
  // Through getToken, as the users-permissions strategy calls it for every request.
  await assert.rejects(
    service.getToken({ request: { header: { authorization: `Bearer ${stolen}` } } }),
    /Invalid token/,
  );
  assert.equal((await service.verify(fresh)).id, 7);
  assert.equal((await service.getToken({ request: { header: { authorization: `Bearer ${fresh}` } } })).id, 7);
});

test("tokens verify when the user never changed the password, or is gone (the strategy refuses those)", async () => {
  const { users, service } = setup();
  const token = service.issue({ id: 7 });
  assert.equal((await service.verify(token)).id, 7);
  users.delete(7);
  assert.equal((await service.verify(token)).id, 7);
  await assert.rejects(service.verify(`${token}x`), /Invalid token/);
});

test("issue() adds iatMs, also for a model with toJSON, and leaves odd payloads alone", () => {
  assert.deepEqual(withIssuedAtMs({ id: 1 }, 5), { id: 1, iatMs: 5 });
  assert.deepEqual(withIssuedAtMs({ toJSON: () => ({ id: 2 }) }, 6), { id: 2, iatMs: 6 });
  assert.equal(withIssuedAtMs("text", 7), "text");
  assert.equal(withIssuedAtMs(null, 7), null);
});

test("issuedAtMs: iatMs first, else iat in seconds, else null", () => {
  assert.equal(issuedAtMs({ iat: 10, iatMs: 10_500 }), 10_500);
  assert.equal(issuedAtMs({ iat: 10 }), 10_000);
  assert.equal(issuedAtMs({ id: 1, sessionId: "s" }), null);
  assert.equal(issuedAtMs(null), null);
});

test("issuedBeforeValidAfter reads what the database stores and never refuses without both times", () => {
  const payload = { iat: 100, iatMs: 100_200 };
  assert.equal(issuedBeforeValidAfter(payload, "1970-01-01T00:01:40.300Z"), true);
  assert.equal(issuedBeforeValidAfter(payload, "1970-01-01T00:01:40.200Z"), false);
  assert.equal(issuedBeforeValidAfter(payload, new Date(100_201)), true);
  assert.equal(issuedBeforeValidAfter(payload, 100_201), true);
  assert.equal(issuedBeforeValidAfter(payload, null), false);
  assert.equal(issuedBeforeValidAfter(payload, "not a date"), false);
  assert.equal(issuedBeforeValidAfter({ id: 1 }, 100_201), false);
  // A token from before this code (no iatMs): its second counts.
  assert.equal(issuedBeforeValidAfter({ iat: 100 }, 100_001), true);
});

test("a caller can never set sessionsValidAfter: dropped, or replaced by now when a password is set", () => {
  const reset = { [FIELD]: null, blocked: false };
  assert.equal(guardUserData(reset, 1_000), false);
  assert.deepEqual(reset, { blocked: false });

  const future = { [FIELD]: "2999-01-01T00:00:00.000Z", username: "x" };
  guardUserData(future, 1_000);
  assert.deepEqual(future, { username: "x" });

  const withPassword = { password: "hashed-or-not", [FIELD]: "1970-01-01T00:00:00.000Z" };
  assert.equal(guardUserData(withPassword, 1_000), true);
  assert.deepEqual(withPassword[FIELD], new Date(1_000));

  const emptyPassword = { password: "" };
  assert.equal(guardUserData(emptyPassword, 1_000), false);
  assert.equal(FIELD in emptyPassword, false);
  assert.equal(guardUserData(undefined, 1_000), false);
});

test("the lifecycles guard single and bulk writes", () => {
  const lifecycles = userLifecycles(() => 42);
  const created = { params: { data: { username: "u", password: "p", [FIELD]: 1 } } };
  lifecycles.beforeCreate(created);
  assert.deepEqual(created.params.data[FIELD], new Date(42));
  const many = { params: { data: [{ [FIELD]: 1 }, { password: "p" }] } };
  lifecycles.beforeCreateMany(many);
  assert.deepEqual(many.params.data, [{}, { password: "p", [FIELD]: new Date(42) }]);
  const updateMany = { params: { where: {}, data: { [FIELD]: 1 } } };
  lifecycles.beforeUpdateMany(updateMany);
  assert.deepEqual(updateMany.params.data, {});
});

test("extendUsersPermissions: the private fields, the write guard, the JWT service wrapped", async () => {
  const strapi = fakeStrapi(new Map());
  const points = fakePoints({
    strapi,
    attributes: { username: { type: "string" } },
    services: { jwt: createPluginJwtService({ strapi }) },
  });
  extendUsersPermissions(points);
  assert.deepEqual(points.attributes[FIELD], {
    type: "datetime",
    private: true,
    configurable: false,
    writable: false,
    visible: false,
  });
  assert.equal(points.attributes.revokedTokens.type, "json");
  assert.deepEqual(points.write({ [FIELD]: 0, username: "ann" }), { username: "ann" });
  const service = points.services.jwt;
  const payload = await service.verify(service.issue({ id: 1 }));
  assert.equal(typeof payload.iatMs, "number");
});
test("END_SESSIONS (a JSON body cannot send a Symbol) or blocking sets sessionsValidAfter to now", () => {
  const { END_SESSIONS } = require("../../../../../src/plugins/accounts/server/users-permissions/sessions-valid-after");
  const data = { [END_SESSIONS]: true };
  assert.equal(guardUserData(data, 5_000), true);
  assert.deepEqual(data, { [FIELD]: new Date(5_000) });
  const blocking = { blocked: true };
  assert.equal(guardUserData(blocking, 6_000), true, "blocking a user ends the sessions");
  assert.deepEqual(blocking, { blocked: true, [FIELD]: new Date(6_000) });
  assert.equal(guardUserData({ blocked: false }, 6_000), false);
  const forged = JSON.parse('{"endSessions": true, "revokedTokens": [], "sessionsValidAfter": null}');
  assert.equal(guardUserData(forged, 5_000), false);
  assert.deepEqual(forged, { endSessions: true });
});

test("one token signed out: refused by verify, the user's other tokens still verify", async (t) => {
  const {
    REVOKED_FIELD,
    revokeTokenWrite,
  } = require("../../../../../src/plugins/accounts/server/users-permissions/sessions-valid-after");
  const { users, service, clock } = setup();
  t.mock.timers.enable({ apis: ["Date"], now: clock.now });
  const phone = service.issue({ id: 7 });
  clock.now += 5;
  t.mock.timers.setTime(clock.now);
  const laptop = service.issue({ id: 7 });
  const data = revokeTokenWrite(await service.verify(phone), users.get(7)[REVOKED_FIELD], clock.now);
  userLifecycles(() => clock.now).beforeUpdate({ params: { data } });
  Object.assign(users.get(7), data);
  assert.equal(data[FIELD], undefined, "a single sign-out leaves sessionsValidAfter alone");
  await assert.rejects(service.verify(phone), /Invalid token/);
  assert.equal((await service.verify(laptop)).id, 7);
});

test("the revoked list drops expired entries; over the cap, or without iatMs, every session ends", () => {
  const {
    MAX_REVOKED_TOKENS,
    END_SESSIONS,
    REVOKED_LIST,
    revokeTokenWrite,
    isRevokedToken,
  } = require("../../../../../src/plugins/accounts/server/users-permissions/sessions-valid-after");
  const now = 1_000_000_000;
  const stored = [
    { iatMs: 1, exp: now / 1000 - 1 },
    { iatMs: 2, exp: now / 1000 + 60 },
  ];
  const write = revokeTokenWrite({ id: 7, iatMs: 3, exp: now / 1000 + 90 }, stored, now);
  assert.deepEqual(write[REVOKED_LIST], [
    { iatMs: 2, exp: now / 1000 + 60 },
    { iatMs: 3, exp: now / 1000 + 90 },
  ]);
  assert.equal(write[END_SESSIONS], undefined);
  assert.equal(isRevokedToken({ iatMs: 3 }, write[REVOKED_LIST]), true);
  assert.equal(isRevokedToken({ iatMs: 4 }, write[REVOKED_LIST]), false);
  assert.equal(isRevokedToken({ iatMs: 3 }, "not a list"), false);

  const full = Array.from({ length: MAX_REVOKED_TOKENS }, (_, i) => ({ iatMs: i + 10, exp: null }));
  const overflow = revokeTokenWrite({ id: 7, iatMs: 5, exp: null }, full, now);
  assert.equal(overflow[END_SESSIONS], true);
  assert.deepEqual(overflow[REVOKED_LIST], []);
  assert.equal(revokeTokenWrite({ id: 7, iat: 99 }, [], now)[END_SESSIONS], true);
});
