"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");

const {
  TWO_FACTOR,
  TWO_FACTOR_WRITE,
  guardTwoFactorData,
  extendTwoFactor,
  withoutTwoFactor,
} = require("./two-factor-fields");

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

  // register() (after the plugin's own) adds a document middleware that hides the fields.
  const middlewares = [];
  const strapi = { documents: { use: (middleware) => middlewares.push(middleware) } };
  await plugin.register({ strapi });
  assert.equal(middlewares.length, 1);
  const entry = () => ({ id: 1, email: "a@example.com", [TWO_FACTOR.secret]: "v1.x", [TWO_FACTOR.enabled]: true });
  const user = await middlewares[0]({ uid: "plugin::users-permissions.user" }, async () => [entry()]);
  assert.deepEqual(user, [{ id: 1, email: "a@example.com" }]);
  const page = await middlewares[0]({ uid: "api::page.page" }, async () => entry());
  assert.deepEqual(page, entry(), "other content types are left alone");
});

test("withoutTwoFactor: an entry, a list, a delete's entries, null", () => {
  const entry = () => ({ id: 1, [TWO_FACTOR.recoveryCodes]: [], [TWO_FACTOR.lastStep]: 3 });
  assert.deepEqual(withoutTwoFactor(entry()), { id: 1 });
  assert.deepEqual(withoutTwoFactor([entry(), null]), [{ id: 1 }, null]);
  assert.deepEqual(withoutTwoFactor({ documentId: "d", entries: [entry()] }), {
    documentId: "d",
    entries: [{ id: 1 }],
  });
  assert.equal(withoutTwoFactor(null), null);
  assert.equal(withoutTwoFactor(3), 3);
});
