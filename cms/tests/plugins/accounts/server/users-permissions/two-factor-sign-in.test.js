"use strict";

// Run with `npm test` in cms/ (node:test).
const test = require("node:test");
const assert = require("node:assert/strict");

const {
  PENDING_CLAIM,
  MAX_VERIFIED_TOKENS,
  isVerifiedToken,
  verifiedTokensWith,
  wrapJwtService,
  markPendingAnswer,
} = require("../../../../../src/plugins/accounts/server/users-permissions/two-factor-sign-in");

const NOW = 1_800_000_000_000;
const pending = (iatMs, exp = NOW / 1000 + 3600) => ({ id: 7, iatMs, exp, [PENDING_CLAIM]: true });

/** A Strapi with one user row (the fields asked for) and a JWT service that issues its payload as JSON. */
function fakeStrapi(row) {
  const issued = [];
  return {
    issued,
    db: {
      query: () => ({
        findOne: async ({ select }) => (row ? Object.fromEntries(select.map((k) => [k, row[k]])) : null),
      }),
    },
    plugin: () => ({ service: () => ({ issue: (payload) => (issued.push(payload), JSON.stringify(payload)) }) }),
  };
}

test("a pending token is refused unless its code was given, or the caller allows it", async () => {
  const row = { id: 7, twoFactorVerifiedTokens: [{ iatMs: 2, exp: NOW / 1000 + 60 }] };
  const service = wrapJwtService({ verify: async (token) => JSON.parse(token) }, { strapi: fakeStrapi(row) });
  await assert.rejects(service.verify(JSON.stringify(pending(1))), /Invalid token/);
  assert.equal((await service.verify(JSON.stringify(pending(1)), { allowTwoFactorPending: true })).iatMs, 1);
  assert.equal((await service.verify(JSON.stringify(pending(2)))).iatMs, 2);
  // A whole session's token (no claim) is not looked at; a deleted user's pending token is refused.
  assert.equal((await service.verify(JSON.stringify({ id: 7, iatMs: 1 }))).iatMs, 1);
  const gone = wrapJwtService({ verify: async (token) => JSON.parse(token) }, { strapi: fakeStrapi(null) });
  await assert.rejects(gone.verify(JSON.stringify(pending(2))), /Invalid token/);
});

test("the verified list: added once, expired entries dropped, capped, garbage ignored", () => {
  const stored = [{ iatMs: 1, exp: NOW / 1000 - 1 }, { iatMs: 2, exp: NOW / 1000 + 60 }, "x", { iatMs: "3" }];
  const list = verifiedTokensWith(pending(5), stored, NOW);
  assert.deepEqual(
    list.map((entry) => entry.iatMs),
    [2, 5],
  );
  assert.deepEqual(verifiedTokensWith(pending(5), list, NOW), list);
  assert.ok(isVerifiedToken(pending(5), list));
  assert.ok(!isVerifiedToken(pending(1), list));
  assert.ok(!isVerifiedToken({ id: 7 }, list));
  let many = [];
  for (let i = 0; i < MAX_VERIFIED_TOKENS + 5; i += 1) many = verifiedTokensWith(pending(100 + i), many, NOW);
  assert.equal(many.length, MAX_VERIFIED_TOKENS);
  assert.ok(isVerifiedToken(pending(100 + MAX_VERIFIED_TOKENS + 4), many));
});

test("a password answer of a user with two-factor on carries a pending JWT; others are left as they are", async () => {
  const on = fakeStrapi({ id: 7, twoFactorEnabled: true });
  const ctx = { body: { jwt: "strapi's", user: { id: 7 } } };
  await markPendingAnswer(on, ctx);
  assert.deepEqual(JSON.parse(ctx.body.jwt), { id: 7, [PENDING_CLAIM]: true });
  const off = fakeStrapi({ id: 7, twoFactorEnabled: false });
  const plain = { body: { jwt: "strapi's", user: { id: 7 } } };
  await markPendingAnswer(off, plain);
  assert.equal(plain.body.jwt, "strapi's");
  const refused = { body: { data: null, error: { status: 400 } } };
  await markPendingAnswer(on, refused);
  assert.deepEqual(refused.body, { data: null, error: { status: 400 } });
});
