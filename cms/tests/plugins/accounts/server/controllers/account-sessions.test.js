"use strict";

// Run with `npm test` in cms/ (node:test).
// docs/security.md, finding 36: a pending change of email asked for while the owner ends every
// session (a new password, two-factor on, sign out everywhere) cannot be confirmed.
const test = require("node:test");
const assert = require("node:assert/strict");

const createAccountSessions = require("../../../../../src/plugins/accounts/server/controllers/account-sessions");
const {
  END_SESSIONS,
  endAllSessions,
} = require("../../../../../src/plugins/accounts/server/users-permissions/session-check");
const {
  NEW_EMAIL_FIELD,
  TOKEN_HASH_FIELD,
  extendEmailChange,
} = require("../../../../../src/plugins/accounts/server/users-permissions/email-change-fields");
const { setup } = require("../users-permissions/strapi-sessions-fake");

const USER_UID = "plugin::users-permissions.user";

/**
 * The accounts controller over the fake Strapi of ../users-permissions/strapi-sessions-fake.js
 * (Strapi's real session manager and JWT service, the plugin's session check), user writes run
 * through the plugin's guards as the database lifecycles run them. `state.duringPasswordCheck()`
 * runs inside the re-authentication's password comparison: after the session check of
 * requestEmailChange, before its write.
 */
function accountSetup() {
  const fake = setup();
  const { strapi, points, jwt, tables } = fake;
  extendEmailChange(points);
  Object.assign(tables[USER_UID][1], {
    email: "ann@example.com",
    username: "ann",
    password: "hash:pw",
    blocked: false,
  });
  const state = { mails: [], duringPasswordCheck: async () => {} };
  // User writes go through the guards (before, the row's write, after), as the lifecycles do.
  const query = strapi.db.query;
  strapi.db.query = (uid) => {
    const q = query(uid);
    if (uid !== USER_UID) return q;
    return { ...q, update: ({ where, data }) => points.update(where.id, data, () => q.update({ where, data })) };
  };
  // Strapi gives the callback its transaction (`{ trx, ... }`); SQLite here (no dialect): no lock uses it.
  strapi.db.transaction = (run) => run({ trx: null });
  strapi.log = { error() {} };
  const get = strapi.config.get;
  strapi.config.get = (key, fallback) =>
    key === "plugin::accounts"
      ? { clientUrl: "https://site.test", siteName: "Acme", freshSignInSeconds: 300 }
      : get(key, fallback);
  const userService = {
    async validatePassword(password, hash) {
      await state.duringPasswordCheck();
      return hash === `hash:${password}`;
    },
  };
  const emailService = { send: async (mail) => state.mails.push(mail) };
  strapi.plugin = (name) => ({
    service: (service) => (name === "email" ? emailService : service === "jwt" ? jwt : userService),
  });
  const controller = createAccountSessions({ strapi });
  const request = async (token, email = "thief@example.com") => {
    const ctx = {
      state: { user: { id: 8 } },
      request: { header: { authorization: `Bearer ${token}` }, body: { email, password: "pw" } },
    };
    await controller.requestEmailChange(ctx);
    const link = state.mails.findLast((mail) => mail.to === email)?.text.match(/token=([0-9a-f]{64})/);
    return link?.[1];
  };
  const confirm = async (token) => {
    const ctx = { state: {}, request: { header: {}, body: { token } } };
    await controller.confirmEmailChange(ctx);
    return ctx.body;
  };
  const user = () => tables[USER_UID][1];
  return { ...fake, state, request, confirm, user };
}

/** What ends every session of user 8, each as the project does it. */
const ENDINGS = {
  "a password change": (strapi) =>
    strapi.db
      .query(USER_UID)
      .update({ where: { id: 8 }, data: { password: "hash:new" } })
      .then(() => endAllSessions(strapi, 8)),
  "two-factor on": (strapi) =>
    strapi.db.query(USER_UID).update({ where: { id: 8 }, data: { twoFactorEnabled: true, [END_SESSIONS]: true } }),
  // Strapi's logout with scope all (its rows deleted), then the plugin's wrapper (session-check.js).
  "sign out everywhere": (strapi) =>
    endAllSessions(strapi, 8).then(() =>
      strapi.db.query(USER_UID).update({ where: { id: 8 }, data: { [END_SESSIONS]: true } }),
    ),
};

for (const [name, end] of Object.entries(ENDINGS)) {
  test(`${name} while the change of email is asked for (after its session check, before its write): the link is refused`, async () => {
    const { strapi, jwt, state, request, confirm, user } = accountSetup();
    const thiefSession = await jwt.issue({ id: 8 });
    state.duringPasswordCheck = async () => {
      state.duringPasswordCheck = async () => {};
      await end(strapi);
    };
    const token = await request(thiefSession);
    assert.match(token, /^[0-9a-f]{64}$/, "the request was answered, its pending change written after the ending");
    assert.equal(user()[NEW_EMAIL_FIELD], "thief@example.com");
    await assert.rejects(confirm(token), (error) => {
      assert.equal(error.details?.code, "INVALID_TOKEN");
      return true;
    });
    assert.equal(user().email, "ann@example.com", "the address did not move");
    assert.equal(user()[TOKEN_HASH_FIELD], null, "the pending change is cleared");
  });
}

test("the change is confirmed while the asking session is live; once that session has ended, it is not", async () => {
  const { jwt, request, confirm, user, sessions } = accountSetup();
  const session = await jwt.issue({ id: 8 });
  const token = await request(session);
  assert.deepEqual(await confirm(token), { ok: true, email: "thief@example.com" });
  assert.equal(user().email, "thief@example.com");

  const next = await jwt.issue({ id: 8 });
  const second = await request(next, "other@example.com");
  // Signed out of that one session (Strapi's logout deletes its row).
  const { sessionId } = await jwt.verify(next);
  const rows = sessions();
  rows.splice(
    rows.findIndex((row) => row.sessionId === sessionId),
    1,
  );
  await assert.rejects(confirm(second), /invalid or was already used/);
  assert.equal(user().email, "thief@example.com");
});

test("a pending change stored before the asking session was kept (no session id) is refused and cleared", async () => {
  const { jwt, request, confirm, user } = accountSetup();
  const token = await request(await jwt.issue({ id: 8 }));
  user().emailChangeSessionId = null;
  await assert.rejects(confirm(token), /invalid or was already used/);
  assert.equal(user()[TOKEN_HASH_FIELD], null);
  assert.equal(user().email, "ann@example.com");
});
