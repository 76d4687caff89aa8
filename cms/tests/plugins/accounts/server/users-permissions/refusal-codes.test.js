"use strict";

// Run with `npm test` in cms/ (node:test).
const test = require("node:test");
const assert = require("node:assert/strict");
const { errors } = require("@strapi/utils");

const { extendRefusalCodes } = require("../../../../../src/plugins/accounts/server/users-permissions/refusal-codes");
const { fakePoints } = require("./fake-points");

// Strapi's refusals are thrown with messages this project does not control; the codes must come
// from the user's state and the settings, so every message here is deliberately not Strapi's.
const REWORDED = "Something Strapi might say after an upgrade";

/** A Strapi with one table of users, the users-permissions store and a password check by equality. */
function fakeStrapi({ users = [], advanced = {}, grant = { email: { enabled: true } } } = {}) {
  const settings = { advanced: { allow_register: true, unique_email: true, ...advanced }, grant };
  const matches = (user, where) =>
    Object.entries(where).every(([key, value]) =>
      key === "$or" ? value.some((alternative) => matches(user, alternative)) : user[key] === value,
    );
  return {
    store: () => ({ get: async ({ key }) => settings[key] }),
    db: {
      query: () => ({
        findOne: async ({ where }) => users.find((user) => matches(user, where)) ?? null,
        count: async ({ where }) => users.filter((user) => matches(user, where)).length,
      }),
    },
    plugin: () => ({ service: () => ({ validatePassword: async (given, stored) => given === stored }) }),
  };
}

const ann = { id: 1, email: "ann@example.com", username: "ann@example.com", provider: "local", password: "right" };

/** The auth controller wrapped by the extension, each action refusing with `error`; the code it leaves with. */
async function codeOf(strapi, action, ctx, error) {
  const controller = { [action]: async () => Promise.reject(error) };
  const points = fakePoints({ strapi, controllers: { auth: controller } });
  extendRefusalCodes(points);
  const thrown = await points.controllers.auth[action](ctx).then(
    () => assert.fail("the action answered"),
    (caught) => caught,
  );
  assert.equal(thrown, error, "the same error goes on");
  return thrown.details?.code;
}

const signIn = (identifier) => ({ params: {}, request: { body: { identifier, password: "whatever" } } });
const validation = () => new errors.ValidationError(REWORDED);
const application = () => new errors.ApplicationError(REWORDED);

test("sign-in: a body refusal (unknown user, wrong password) is INVALID_CREDENTIALS, whatever the user's state", async () => {
  const strapi = fakeStrapi({
    users: [{ ...ann, blocked: true, confirmed: false }],
    advanced: { email_confirmation: true },
  });
  assert.equal(await codeOf(strapi, "callback", signIn("ann@example.com"), validation()), "INVALID_CREDENTIALS");
  assert.equal(await codeOf(strapi, "callback", signIn("nobody@example.com"), validation()), "INVALID_CREDENTIALS");
});

test("sign-in: a right password refused is EMAIL_NOT_CONFIRMED, then BLOCKED, in Strapi's order", async () => {
  const both = fakeStrapi({
    users: [{ ...ann, blocked: true, confirmed: false }],
    advanced: { email_confirmation: true },
  });
  assert.equal(await codeOf(both, "callback", signIn("ANN@example.com"), application()), "EMAIL_NOT_CONFIRMED");
  const blocked = fakeStrapi({ users: [{ ...ann, blocked: true, confirmed: false }] });
  assert.equal(await codeOf(blocked, "callback", signIn("ann@example.com"), application()), "BLOCKED");
  const fine = fakeStrapi({ users: [{ ...ann, blocked: false, confirmed: true }] });
  assert.equal(await codeOf(fine, "callback", signIn("ann@example.com"), application()), undefined);
});

test("sign-in: with password sign-in off, a blocked user's state is not told", async () => {
  const strapi = fakeStrapi({ users: [{ ...ann, blocked: true }], grant: { email: { enabled: false } } });
  assert.equal(await codeOf(strapi, "callback", signIn("ann@example.com"), application()), undefined);
});

test("register: closed, a refused body, a taken address or name, or no code", async () => {
  const body = (email, username = email) => ({ request: { body: { email, username, password: "pw" } } });
  const closed = fakeStrapi({ users: [ann], advanced: { allow_register: false } });
  assert.equal(await codeOf(closed, "register", body("new@example.com"), validation()), "REGISTRATION_CLOSED");
  const open = fakeStrapi({ users: [ann] });
  assert.equal(await codeOf(open, "register", body("ann@example.com"), validation()), "INVALID_REGISTRATION");
  assert.equal(await codeOf(open, "register", body("Ann@Example.com"), application()), "EMAIL_TAKEN");
  assert.equal(
    await codeOf(open, "register", body("new@example.com", "ann@example.com"), application()),
    "EMAIL_TAKEN",
  );
  assert.equal(await codeOf(open, "register", body("new@example.com"), application()), undefined);
});

test("register: without unique_email, only a local user takes an address", async () => {
  const strapi = fakeStrapi({ users: [{ ...ann, provider: "github" }], advanced: { unique_email: false } });
  const ctx = { request: { body: { email: ann.email, username: ann.email, password: "pw" } } };
  assert.equal(await codeOf(strapi, "register", ctx, application()), undefined);
});

test("reset: a code nobody holds is INVALID_RESET_CODE; a held one refused for another reason has none", async () => {
  const strapi = fakeStrapi({ users: [{ ...ann, resetPasswordToken: "held" }] });
  const reset = (code) => ({ request: { body: { code, password: "new", passwordConfirmation: "new" } } });
  assert.equal(await codeOf(strapi, "resetPassword", reset("unknown"), validation()), "INVALID_RESET_CODE");
  assert.equal(await codeOf(strapi, "resetPassword", reset("held"), validation()), undefined);
});

test("change of password: a wrong current password, the same password, or no code", async () => {
  const strapi = fakeStrapi({ users: [ann] });
  const change = (currentPassword, password) => ({
    state: { user: { id: 1 } },
    request: { body: { currentPassword, password } },
  });
  assert.equal(await codeOf(strapi, "changePassword", change("wrong", "right"), validation()), "INVALID_PASSWORD");
  assert.equal(await codeOf(strapi, "changePassword", change("right", "right"), validation()), "SAME_PASSWORD");
  assert.equal(await codeOf(strapi, "changePassword", change("right", "new"), validation()), undefined);
});

test("a refusal with a code keeps it; an error that is no refusal goes on untouched", async () => {
  const strapi = fakeStrapi({ users: [ann] });
  const coded = new errors.ValidationError(REWORDED, { code: "RESET_LINK_EXPIRED" });
  assert.equal(
    await codeOf(strapi, "resetPassword", { request: { body: { code: "x" } } }, coded),
    "RESET_LINK_EXPIRED",
  );
  const crash = new Error("database down");
  assert.equal(await codeOf(strapi, "callback", signIn("ann@example.com"), crash), undefined);
});

test("an answer goes through unchanged", async () => {
  const controller = { callback: async (ctx) => (ctx.body = { jwt: "j" }) };
  const points = fakePoints({ strapi: fakeStrapi(), controllers: { auth: controller } });
  extendRefusalCodes(points);
  const ctx = signIn("ann@example.com");
  await points.controllers.auth.callback(ctx);
  assert.deepEqual(ctx.body, { jwt: "j" });
});
