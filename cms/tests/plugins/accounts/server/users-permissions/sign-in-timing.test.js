"use strict";

// Run with `npm test` in cms/ (node:test).
const test = require("node:test");
const assert = require("node:assert/strict");

const {
  extendSignInTiming,
  spendPasswordCheck,
} = require("../../../../../src/plugins/accounts/server/users-permissions/sign-in-timing");
const { fakePoints } = require("./fake-points");

/** A Strapi with one user table and a password check that records what it compared. */
function fakeStrapi(users) {
  const compared = [];
  const userService = {
    async validatePassword(password, hash) {
      compared.push({ password, hash });
      return false;
    },
    async ensureHashedPasswords(values) {
      return { ...values, password: `hashed:${values.password.length}` };
    },
  };
  return {
    compared,
    db: {
      query: () => ({
        async findOne({ where }) {
          const [byEmail, byUsername] = where.$or;
          return (
            users.find(
              (u) => u.provider === where.provider && (u.email === byEmail.email || u.username === byUsername.username),
            ) ?? null
          );
        },
      }),
    },
    plugin: () => ({ service: () => userService }),
  };
}

const signIn = (body, provider) => ({ params: provider ? { provider } : {}, request: { body } });
const USERS = [
  { provider: "local", email: "known@example.com", username: "known", password: "$2a$10$real" },
  { provider: "local", email: "oauth@example.com", username: "oauth", password: null },
];

test("an unknown address and an account without a password get a comparison against the dummy hash", async () => {
  const strapi = fakeStrapi(USERS);
  const dummy = async () => "$2a$10$dummy";
  await spendPasswordCheck(strapi, signIn({ identifier: "Nobody@Example.com", password: "x1" }), dummy);
  await spendPasswordCheck(strapi, signIn({ identifier: "oauth@example.com", password: "x2" }), dummy);
  assert.deepEqual(strapi.compared, [
    { password: "x1", hash: "$2a$10$dummy" },
    { password: "x2", hash: "$2a$10$dummy" },
  ]);
});

test("a known address with a password is left to Strapi's own comparison (one bcrypt, not two)", async () => {
  const strapi = fakeStrapi(USERS);
  await spendPasswordCheck(strapi, signIn({ identifier: "KNOWN@example.com", password: "x" }), async () => "d");
  await spendPasswordCheck(strapi, signIn({ identifier: "known", password: "x" }), async () => "d");
  assert.deepEqual(strapi.compared, []);
});

test("what Strapi refuses before any lookup (other provider, missing fields) spends nothing", async () => {
  const strapi = fakeStrapi(USERS);
  for (const ctx of [
    signIn({ identifier: "nobody@example.com", password: "x" }, "github"),
    signIn({ identifier: "nobody@example.com" }),
    signIn({ identifier: "", password: "x" }),
    signIn(undefined),
  ]) {
    await spendPasswordCheck(strapi, ctx, async () => "d");
  }
  assert.deepEqual(strapi.compared, []);
});

test("the wrapped controller spends the check, then answers with Strapi's own callback; the dummy hash is made once", async () => {
  const strapi = fakeStrapi(USERS);
  const calls = [];
  const points = fakePoints({
    strapi,
    controllers: {
      auth: {
        async callback(ctx) {
          calls.push(ctx.request.body.identifier);
          return "strapi's answer";
        },
        other: () => "untouched",
      },
    },
  });
  extendSignInTiming(points);
  const controller = points.controllers.auth;
  assert.equal(
    await controller.callback(signIn({ identifier: "a@example.com", password: "secret-1" })),
    "strapi's answer",
  );
  await controller.callback(signIn({ identifier: "b@example.com", password: "secret-2" }));
  assert.deepEqual(calls, ["a@example.com", "b@example.com"]);
  assert.equal(controller.other(), "untouched");
  assert.equal(strapi.compared.length, 2);
  assert.equal(new Set(strapi.compared.map((c) => c.hash)).size, 1);
  assert.match(strapi.compared[0].hash, /^hashed:/);
});
