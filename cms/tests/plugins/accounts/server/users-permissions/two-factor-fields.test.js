"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");

const {
  TWO_FACTOR,
  TWO_FACTOR_WRITE,
  guardTwoFactorData,
  extendTwoFactor,
} = require("../../../src/extensions/users-permissions/two-factor-fields");

test("a write's own two-factor fields are dropped; only the marker writes them", () => {
  const sent = { username: "ann", [TWO_FACTOR.enabled]: false, [TWO_FACTOR.secret]: "x", [TWO_FACTOR.failures]: 0 };
  guardTwoFactorData(sent);
  assert.deepEqual(sent, { username: "ann" });
  const marked = {
    [TWO_FACTOR.lockedUntil]: null,
    [TWO_FACTOR_WRITE]: { [TWO_FACTOR.failures]: 3, [TWO_FACTOR.lockedUntil]: new Date(5), unknown: 1 },
  };
  guardTwoFactorData(marked);
  assert.deepEqual(marked, { [TWO_FACTOR.failures]: 3, [TWO_FACTOR.lockedUntil]: new Date(5) });
  assert.equal(Object.getOwnPropertySymbols(marked).length, 0);
});

test("extendTwoFactor: private, hidden, not writable attributes; the guard after the lifecycles already there", async () => {
  const calls = [];
  const plugin = {
    contentTypes: {
      user: {
        schema: { attributes: { username: { type: "string" } } },
        lifecycles: { beforeUpdate: () => calls.push("theirs") },
      },
    },
  };
  extendTwoFactor(plugin);
  for (const name of Object.values(TWO_FACTOR)) {
    assert.deepEqual(
      { ...plugin.contentTypes.user.schema.attributes[name], type: undefined, default: undefined },
      { type: undefined, default: undefined, private: true, configurable: false, writable: false, visible: false },
      name,
    );
  }
  const event = { params: { data: { [TWO_FACTOR.secret]: "planted" } } };
  await plugin.contentTypes.user.lifecycles.beforeUpdate(event);
  assert.deepEqual(calls, ["theirs"]);
  assert.deepEqual(event.params.data, {});
  const many = { params: { data: [{ [TWO_FACTOR.enabled]: true }] } };
  plugin.contentTypes.user.lifecycles.beforeUpdateMany(many);
  assert.deepEqual(many.params.data, [{}]);
});
