"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");

const { callerOf } = require("../../../../src/api/account-sessions/lib/caller");

const user = { id: 7, blocked: false };
const deps = (payload, found = user) => ({
  getToken: async () => {
    if (payload instanceof Error) throw payload;
    return payload;
  },
  findUser: async (id) => (id === found?.id ? found : null),
});

test("a valid JWT of an existing, unblocked user is the caller", async () => {
  const caller = await callerOf({}, deps({ id: 7, iatMs: 1 }));
  assert.deepEqual(caller, { payload: { id: 7, iatMs: 1 }, user });
});

test("no JWT, a refused JWT, a deleted or a blocked user: 401, nothing else", async () => {
  for (const [payload, found] of [
    [null, user],
    [new Error("Invalid token."), user],
    [{ id: 8 }, user],
    [{ id: 7 }, { id: 7, blocked: true }],
  ]) {
    const { answer, user: who } = await callerOf({}, deps(payload, found));
    assert.equal(who, undefined);
    assert.equal(answer.status, 401);
    assert.equal(answer.body.error.name, "UnauthorizedError");
  }
});
