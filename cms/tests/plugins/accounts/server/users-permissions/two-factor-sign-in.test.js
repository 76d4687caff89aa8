"use strict";

// Run with `npm test` in cms/ (node:test).
const test = require("node:test");
const assert = require("node:assert/strict");

const {
  PENDING_CLAIM,
  markPendingAnswer,
  completeSecondFactor,
} = require("../../../../../src/plugins/accounts/server/users-permissions/two-factor-sign-in");
const { setup } = require("./strapi-sessions-fake");

test("two-factor: the password step's session is pending (refused but where allowed) until the code", async () => {
  const { strapi, jwt } = setup();
  const token = await jwt.issue({ id: 7 });
  const ctx = { body: { jwt: token, user: { id: 7 } } };
  await markPendingAnswer(strapi, ctx);
  assert.equal(ctx.body.jwt, token, "the same token: its session is marked");
  await assert.rejects(jwt.verify(token), /Invalid token/);
  const pending = await jwt.verify(token, { allowTwoFactorPending: true });
  assert.equal(pending[PENDING_CLAIM], true);
  await completeSecondFactor(strapi, pending);
  const whole = await jwt.verify(token);
  assert.equal(whole[PENDING_CLAIM], undefined);
  // A user without two-factor: left as it is.
  const plainToken = await jwt.issue({ id: 8 });
  const plain = { body: { jwt: plainToken, user: { id: 8 } } };
  await markPendingAnswer(strapi, plain);
  assert.equal((await jwt.verify(plainToken)).id, 8);
  // A refusal is left alone.
  const refused = { body: { data: null, error: { status: 400 } } };
  await markPendingAnswer(strapi, refused);
  assert.deepEqual(refused.body, { data: null, error: { status: 400 } });
});

test("two-factor: a session that cannot be marked is withdrawn, never left whole", async () => {
  const { strapi } = setup();
  const ctx = { body: { jwt: "not a token of ours", user: { id: 7 } } };
  await assert.rejects(markPendingAnswer(strapi, ctx), /could not be marked pending/);
});

test("two-factor: a mark whose write throws ends the new session before the error answer", async () => {
  const { strapi, jwt, sessions } = setup();
  const token = await jwt.issue({ id: 7 });
  const query = strapi.db.query;
  strapi.db.query = (uid) =>
    uid === "admin::session"
      ? {
          ...query(uid),
          update: async () => {
            throw new Error("database gone away");
          },
        }
      : query(uid);
  const ctx = { body: { jwt: token, user: { id: 7 } } };
  await assert.rejects(markPendingAnswer(strapi, ctx), /could not be marked pending/);
  strapi.db.query = query;
  assert.equal(ctx.body, undefined, "the answer is withdrawn");
  assert.deepEqual(sessions(), [], "the session is ended");
  await assert.rejects(jwt.verify(token, { allowTwoFactorPending: true }), /Invalid token/);
});
