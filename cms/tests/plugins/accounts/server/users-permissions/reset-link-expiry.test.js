"use strict";

// Run with `npm test` in cms/ (node:test).
const test = require("node:test");
const assert = require("node:assert/strict");

const {
  FIELD,
  EXPIRED_MESSAGE,
  extendResetLinkExpiry,
  isExpired,
  refuseExpiredCode,
  stampResetCode,
} = require("../../../../../src/plugins/accounts/server/users-permissions/reset-link-expiry");
const { fakePoints } = require("./fake-points");

const HOUR = 60 * 60 * 1000;

test("the time is set with a new code and cleared with it; a caller's own value is dropped", () => {
  const now = new Date("2026-11-23T16:00:00Z");
  const issued = { resetPasswordToken: "abc", [FIELD]: "1999-01-01" };
  stampResetCode(issued, now);
  assert.deepEqual(issued, { resetPasswordToken: "abc", [FIELD]: now });
  const used = { resetPasswordToken: null, password: "x" };
  stampResetCode(used, now);
  assert.equal(used[FIELD], null);
  const other = { blocked: true, [FIELD]: "2030-01-01" };
  stampResetCode(other, now);
  assert.deepEqual(other, { blocked: true });
});

test("a code is expired from its time-to-live on, and when it has no time at all", () => {
  const issued = new Date("2026-11-23T16:00:00Z");
  assert.equal(isExpired(issued, HOUR, issued.getTime() + HOUR - 1), false);
  assert.equal(isExpired(issued, HOUR, issued.getTime() + HOUR), true);
  assert.equal(isExpired(issued.toISOString(), HOUR, issued.getTime() + 1), false);
  assert.equal(isExpired(null, HOUR), true);
  assert.equal(isExpired("garbage", HOUR), true);
});

/** A user table with one user holding a reset code issued at `issuedAt`. */
function fakeStrapi(issuedAt) {
  const user = { id: 7, resetPasswordToken: "code-1", [FIELD]: issuedAt };
  const updates = [];
  return {
    user,
    updates,
    db: {
      query: () => ({
        async findOne({ where }) {
          return where.resetPasswordToken === user.resetPasswordToken ? { id: user.id, [FIELD]: user[FIELD] } : null;
        },
        async update({ where, data }) {
          updates.push({ where, data });
          Object.assign(user, data);
        },
      }),
    },
  };
}

const resetWith = (code) => ({
  request: { body: { code, password: "New-passw0rd!", passwordConfirmation: "New-passw0rd!" } },
});

test("an expired code is cleared and refused with Strapi's 400; a fresh or unknown one is left to Strapi", async () => {
  const old = fakeStrapi(new Date(Date.now() - 2 * HOUR));
  await assert.rejects(refuseExpiredCode(old, resetWith("code-1"), HOUR), (error) => {
    assert.equal(error.name, "ValidationError");
    assert.equal(error.message, EXPIRED_MESSAGE);
    return true;
  });
  assert.deepEqual(old.updates, [{ where: { id: 7 }, data: { resetPasswordToken: null } }]);

  const fresh = fakeStrapi(new Date());
  await refuseExpiredCode(fresh, resetWith("code-1"), HOUR);
  await refuseExpiredCode(fresh, resetWith("unknown"), HOUR);
  await refuseExpiredCode(fresh, { request: { body: {} } }, HOUR);
  assert.deepEqual(fresh.updates, []);
});

test("the plugin gets the field, the write guard and the check before Strapi's own resetPassword", async () => {
  const calls = [];
  const strapi = fakeStrapi(new Date());
  const points = fakePoints({
    strapi,
    controllers: { auth: { resetPassword: async () => calls.push("strapi"), callback: () => "untouched" } },
  });
  extendResetLinkExpiry(points, { ttlMs: HOUR });
  assert.equal(points.attributes[FIELD].private, true);
  assert.ok(points.write({ resetPasswordToken: "abc" })[FIELD] instanceof Date);

  const controller = points.controllers.auth;
  await controller.resetPassword(resetWith("code-1"));
  assert.deepEqual(calls, ["strapi"]);
  strapi.user[FIELD] = new Date(Date.now() - 2 * HOUR);
  await assert.rejects(controller.resetPassword(resetWith("code-1")), (error) => {
    assert.match(error.message, /Reset link expired/);
    assert.deepEqual(error.details, { code: "RESET_LINK_EXPIRED" });
    return true;
  });
  assert.deepEqual(calls, ["strapi"]);
  assert.equal(controller.callback(), "untouched");
});
