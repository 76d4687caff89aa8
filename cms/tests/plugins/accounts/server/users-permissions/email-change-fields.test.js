"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");

const {
  TOKEN_HASH_FIELD,
  NEW_EMAIL_FIELD,
  EXPIRES_FIELD,
  pendingEmailChangeWrite,
  guardEmailChangeData,
  extendEmailChange,
} = require("../../../src/extensions/users-permissions/email-change-fields");

test("a caller's values for the pending change are dropped; only the marker writes them", () => {
  const data = {
    username: "x",
    [TOKEN_HASH_FIELD]: "forged",
    [NEW_EMAIL_FIELD]: "evil@x.test",
    [EXPIRES_FIELD]: "2999",
  };
  guardEmailChangeData(data);
  assert.deepEqual(data, { username: "x" });

  const write = pendingEmailChangeWrite({ tokenHash: "h", email: "new@x.test", expiresAt: 1000 });
  guardEmailChangeData(write);
  assert.deepEqual(
    { ...write },
    { [TOKEN_HASH_FIELD]: "h", [NEW_EMAIL_FIELD]: "new@x.test", [EXPIRES_FIELD]: new Date(1000) },
  );
  assert.equal(Object.getOwnPropertySymbols(write).length, 0);

  const clear = pendingEmailChangeWrite(null);
  guardEmailChangeData(clear);
  assert.deepEqual({ ...clear }, { [TOKEN_HASH_FIELD]: null, [NEW_EMAIL_FIELD]: null, [EXPIRES_FIELD]: null });
});

test("the fields are private and hidden; the guard runs after an existing lifecycle", async () => {
  const calls = [];
  const plugin = {
    contentTypes: {
      user: { schema: { attributes: {} }, lifecycles: { beforeUpdate: async () => calls.push("previous") } },
    },
  };
  extendEmailChange(plugin);
  const { attributes } = plugin.contentTypes.user.schema;
  for (const field of [TOKEN_HASH_FIELD, NEW_EMAIL_FIELD, EXPIRES_FIELD]) {
    assert.equal(attributes[field].private, true);
    assert.equal(attributes[field].writable, false);
    assert.equal(attributes[field].visible, false);
  }
  const event = { params: { data: { [NEW_EMAIL_FIELD]: "evil@x.test" } } };
  await plugin.contentTypes.user.lifecycles.beforeUpdate(event);
  assert.deepEqual(calls, ["previous"]);
  assert.deepEqual(event.params.data, {});
  const many = { params: { data: [{ [TOKEN_HASH_FIELD]: "x" }] } };
  plugin.contentTypes.user.lifecycles.beforeUpdateMany(many);
  assert.deepEqual(many.params.data, [{}]);
});
