"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");

const {
  TWO_FACTOR,
  TWO_FACTOR_WRITE,
  guardTwoFactorData,
  extendTwoFactor,
} = require("../../../../../src/plugins/accounts/server/users-permissions/two-factor-fields");
const { fakePoints } = require("./fake-points");

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

test("extendTwoFactor: private, hidden, not writable attributes; every user write goes through the guard", () => {
  const points = fakePoints({ attributes: { username: { type: "string" } } });
  extendTwoFactor(points);
  for (const name of Object.values(TWO_FACTOR)) {
    assert.deepEqual(
      { ...points.attributes[name], type: undefined, default: undefined },
      { type: undefined, default: undefined, private: true, configurable: false, writable: false, visible: false },
      name,
    );
  }
  assert.deepEqual(points.attributes.username, { type: "string" });
  assert.deepEqual(points.write({ [TWO_FACTOR.secret]: "planted", [TWO_FACTOR.enabled]: true }), {});
});
