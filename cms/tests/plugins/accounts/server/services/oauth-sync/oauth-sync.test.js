"use strict";

// Run with `npm test` in cms/ (node:test). The service against a small in-memory stand-in for
// the parts of Strapi it uses; the same flows against the real Strapi are in
// tests/integration/cms-auth-oauth-sync.test.ts.
const test = require("node:test");
const assert = require("node:assert/strict");

const createService = require("../../../../../../src/plugins/accounts/server/services/oauth-sync/index");

const USER = "plugin::users-permissions.user";
const ROLE = "plugin::users-permissions.role";
const IDENTITY = "plugin::accounts.oauth-identity";

function uniqueViolation() {
  return Object.assign(
    new Error(
      "insert into `oauth_identities` - UNIQUE constraint failed: oauth_identities.provider, oauth_identities.subject",
    ),
    {
      code: "SQLITE_CONSTRAINT_UNIQUE",
    },
  );
}

/** Just enough Strapi: db.query for users, roles and identities, transactions that roll back, the plugin's services. */
function fakeStrapi({ users = [], identities = [], advanced = {}, beforeIdentityCreate } = {}) {
  let state = { users: structuredClone(users), identities: structuredClone(identities), nextId: 100 };
  const afterRollback = [];
  const log = [];
  const lower = (value) => String(value ?? "").toLowerCase();
  const userById = (id) => state.users.find((user) => user.id === id) ?? null;

  const queries = {
    [USER]: {
      findOne: async ({ where }) =>
        state.users.find((user) =>
          where.id !== undefined ? user.id === where.id : lower(user.email) === lower(where.email.$eqi),
        ) ?? null,
      count: async ({ where }) =>
        state.users.filter((user) => lower(user.username) === lower(where.username.$eqi)).length,
    },
    [ROLE]: { findOne: async ({ where }) => ({ id: 2, type: where.type }) },
    [IDENTITY]: {
      findOne: async ({ where, populate }) => {
        const row = state.identities.find(
          (identity) => identity.provider === where.provider && identity.subject === where.subject,
        );
        return row ? { ...row, ...(populate ? { user: userById(row.user) } : {}) } : null;
      },
      findMany: async ({ where }) => state.identities.filter((identity) => identity.user === where.user.id),
      create: async ({ data }) => {
        await beforeIdentityCreate?.({ data, state, afterRollback });
        if (
          state.identities.some((identity) => identity.provider === data.provider && identity.subject === data.subject)
        )
          throw uniqueViolation();
        const row = { id: (state.nextId += 1), ...data };
        state.identities.push(row);
        return row;
      },
      update: async ({ where, data }) =>
        Object.assign(
          state.identities.find((identity) => identity.id === where.id),
          data,
        ),
      delete: async ({ where }) => {
        state.identities = state.identities.filter((identity) => identity.id !== where.id);
      },
    },
  };

  const strapi = {
    db: {
      query: (uid) => queries[uid],
      async transaction(work) {
        const snapshot = structuredClone(state);
        try {
          return await work({ trx: null });
        } catch (error) {
          state = snapshot;
          for (const action of afterRollback.splice(0)) action(state);
          throw error;
        }
      },
    },
    store: () => ({ get: async () => advanced }),
    plugin: () => ({
      service: (name) =>
        name === "jwt"
          ? { issue: ({ id }) => `jwt-for-${id}` }
          : {
              add: async (values) => {
                const user = { id: (state.nextId += 1), ...values };
                state.users.push(user);
                return user;
              },
            },
    }),
    contentAPI: { sanitize: { output: async ({ password, ...user }) => user } },
    getModel: () => ({}),
    log: { info: (message) => log.push(message) },
  };
  return { strapi, log, state: () => state };
}

/** A confirmed, unblocked CMS user. */
const cmsUser = (id, username, email, provider, fields = {}) => ({
  id,
  username,
  email,
  provider,
  confirmed: true,
  blocked: false,
  ...fields,
});

const google = {
  provider: "google",
  subject: "g-victim",
  email: "victim@example.com",
  emailVerified: true,
  refresh: false,
};

test("sync: pre-hijack: a password account registered with the address is not linked to the owner", async () => {
  // Registered by someone else with a password; email_confirmation is off, so Strapi stored confirmed: true.
  const attacker = cmsUser(1, "victim", "victim@example.com", "local", { password: "hash" });
  const { strapi, state } = fakeStrapi({ users: [attacker], advanced: { email_confirmation: false } });
  const answer = await createService({ strapi }).sync(google);
  assert.equal(answer.refusal.status, 409);
  assert.equal(answer.refusal.code, "ACCOUNT_EMAIL_NOT_CONFIRMED");
  assert.equal("body" in answer, false, "no JWT");
  assert.deepEqual(state().identities, []);
});

test("sync: the provider account is found by its subject, not by the email", async () => {
  const owner = cmsUser(1, "ada", "ada@example.com", "github");
  const { strapi } = fakeStrapi({
    users: [owner, cmsUser(2, "other", "other@example.com", "local")],
    identities: [
      { id: 10, provider: "github", subject: "583231", email: "ada@example.com", emailVerified: true, user: 1 },
    ],
  });
  const answer = await createService({ strapi }).sync({
    provider: "github",
    subject: "583231",
    email: "other@example.com",
    emailVerified: true,
    refresh: false,
  });
  assert.equal(answer.status, 200);
  assert.equal(answer.body.user.id, 1);
  assert.equal(answer.body.jwt, "jwt-for-1");
});

test("sync: two first sign-ins of one provider account at once: one user (rolled back, link used)", async () => {
  let raced = false;
  const { strapi, state, log } = fakeStrapi({
    // Another request for the same provider account commits its user and link while this one
    // is between its read ("no link") and its write: the unique index refuses the second link.
    beforeIdentityCreate: async ({ data, afterRollback }) => {
      if (raced) return;
      raced = true;
      afterRollback.push((committed) => {
        committed.users.push(cmsUser(50, "victim", data.email, "google"));
        committed.identities.push({
          id: 51,
          provider: data.provider,
          subject: data.subject,
          email: data.email,
          emailVerified: true,
          user: 50,
        });
      });
      throw uniqueViolation();
    },
  });
  const answer = await createService({ strapi }).sync(google);
  assert.equal(answer.status, 200);
  assert.equal(answer.body.user.id, 50);
  assert.equal(answer.body.created, false);
  // The user this request had created went with the rollback.
  assert.deepEqual(
    state().users.map((user) => user.id),
    [50],
  );
  assert.equal(state().identities.length, 1);
  assert.ok(log.some((line) => /concurrent first sign-in/.test(line)));
});

test("sync: an error other than a unique violation is not retried", async () => {
  let calls = 0;
  const { strapi } = fakeStrapi({
    beforeIdentityCreate: async () => {
      calls += 1;
      throw new Error("SQLITE_BUSY: database is locked");
    },
  });
  await assert.rejects(createService({ strapi }).sync(google), /SQLITE_BUSY/);
  assert.equal(calls, 1);
});

test("sync: two first sign-ins with one new email (two providers) at once: one user", async () => {
  const { strapi, state } = fakeStrapi();
  const service = createService({ strapi });
  const github = { ...google, provider: "github", subject: "583231" };
  // The stand-in's reads and writes each take a turn of the event loop, as the database's do:
  // without the per-email lock both requests find no user and both create one.
  const answers = await Promise.all([service.sync(google), service.sync(github)]);
  assert.equal(state().users.length, 1);
  assert.equal(answers[0].status, 201);
  assert.equal(answers[0].body.user.confirmed, true, "the provider verified the address");
  assert.notEqual(answers[1].status, 201);
});

test("sync: an address the provider did not verify makes an unconfirmed user", async () => {
  const { strapi } = fakeStrapi();
  const answer = await createService({ strapi }).sync({ ...google, emailVerified: false });
  assert.equal(answer.status, 201);
  assert.equal(answer.body.user.confirmed, false);
});

test("sync: the callback's sync stamps the provider sign-in (authAt); a re-sync only carries on the time it is given", async () => {
  const owner = cmsUser(1, "ada", "ada@example.com", "github");
  const link = {
    id: 10,
    provider: "github",
    subject: "583231",
    email: "ada@example.com",
    emailVerified: true,
    user: 1,
  };
  const { strapi } = fakeStrapi({ users: [owner], identities: [link] });
  const issued = [];
  const plugin = strapi.plugin;
  strapi.plugin = () => ({
    service: (name) =>
      name === "jwt"
        ? {
            issue: (payload) => {
              issued.push(payload);
              return `jwt-${issued.length}`;
            },
          }
        : plugin().service(name),
  });
  const service = createService({ strapi });
  const input = { provider: "github", subject: "583231", email: "ada@example.com", emailVerified: true };
  const before = Date.now();
  const callback = await service.sync({ ...input, refresh: false });
  assert.ok(issued[0].authAtMs >= before && issued[0].authAtMs <= Date.now());
  assert.equal(callback.body.authAt, issued[0].authAtMs);

  // Re-syncs: the old time stays old (never "now"); no time at all gives a JWT that never counts as fresh.
  await service.sync({ ...input, refresh: true, authAt: 1_000 });
  assert.equal(issued[1].authAtMs, 1_000);
  await service.sync({ ...input, refresh: true });
  assert.equal("authAtMs" in issued[2], false);
  // A time from the future is capped at now.
  await service.sync({ ...input, refresh: true, authAt: Date.now() + 3_600_000 });
  assert.ok(issued[3].authAtMs <= Date.now());
});
