"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");

const {
  TOKEN_HASH_FIELD,
  NEW_EMAIL_FIELD,
  EXPIRES_FIELD,
  SESSION_FIELD,
  pendingEmailChangeWrite,
  guardEmailChangeData,
  extendEmailChange,
} = require("../../../../../src/plugins/accounts/server/users-permissions/email-change-fields");
const { fakePoints } = require("./fake-points");

test("a caller's values for the pending change are dropped; only the marker writes them", () => {
  const data = {
    username: "x",
    [TOKEN_HASH_FIELD]: "forged",
    [NEW_EMAIL_FIELD]: "evil@x.test",
    [EXPIRES_FIELD]: "2999",
    [SESSION_FIELD]: "forged-session",
  };
  guardEmailChangeData(data);
  assert.deepEqual(data, { username: "x" });

  const write = pendingEmailChangeWrite({ tokenHash: "h", email: "new@x.test", expiresAt: 1000, sessionId: "s1" });
  guardEmailChangeData(write);
  assert.deepEqual(
    { ...write },
    {
      [TOKEN_HASH_FIELD]: "h",
      [NEW_EMAIL_FIELD]: "new@x.test",
      [EXPIRES_FIELD]: new Date(1000),
      [SESSION_FIELD]: "s1",
    },
  );
  assert.equal(Object.getOwnPropertySymbols(write).length, 0);

  const clear = pendingEmailChangeWrite(null);
  guardEmailChangeData(clear);
  assert.deepEqual(
    { ...clear },
    { [TOKEN_HASH_FIELD]: null, [NEW_EMAIL_FIELD]: null, [EXPIRES_FIELD]: null, [SESSION_FIELD]: null },
  );
});

test("the fields are private and hidden; every user write goes through the guard", () => {
  const points = fakePoints();
  extendEmailChange(points);
  for (const field of [TOKEN_HASH_FIELD, NEW_EMAIL_FIELD, EXPIRES_FIELD, SESSION_FIELD]) {
    assert.equal(points.attributes[field].private, true);
    assert.equal(points.attributes[field].writable, false);
    assert.equal(points.attributes[field].visible, false);
  }
  assert.deepEqual(points.write({ [NEW_EMAIL_FIELD]: "evil@x.test", username: "ann" }), { username: "ann" });
});
