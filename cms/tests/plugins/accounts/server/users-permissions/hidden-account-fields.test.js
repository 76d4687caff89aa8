"use strict";

// Run with `npm test` in cms/ (node:test).
const test = require("node:test");
const assert = require("node:assert/strict");

const {
  extendHiddenAccountFields,
  hiddenFieldNames,
  withoutFields,
} = require("../../../../../src/plugins/accounts/server/users-permissions/hidden-account-fields");
const { extendSessionCheck } = require("../../../../../src/plugins/accounts/server/users-permissions/session-check");
const { extendTwoFactor } = require("../../../../../src/plugins/accounts/server/users-permissions/two-factor-fields");
const { fakePoints } = require("./fake-points");
const {
  extendEmailChange,
} = require("../../../../../src/plugins/accounts/server/users-permissions/email-change-fields");

/** The users-permissions user's own attributes, reduced to what the extensions touch. */
const strapiAttributes = () => ({
  email: { type: "email" },
  password: { type: "password", private: true, configurable: false, searchable: false },
  resetPasswordToken: { type: "string", private: true, configurable: false },
});

/** The extension points with the JWT service and auth controller the other extensions wrap. */
const points = () => fakePoints({ attributes: strapiAttributes(), services: { jwt: {} }, controllers: { auth: {} } });

test("every field the extensions add is hidden; Strapi's own private fields are not touched", () => {
  const extended = points();
  extendSessionCheck(extended);
  extendTwoFactor(extended);
  extendEmailChange(extended);
  const names = hiddenFieldNames(extended.attributes);
  for (const name of ["twoFactorSecret", "twoFactorRecoveryCodes"]) {
    assert.ok(names.includes(name), name);
  }
  assert.ok(
    names.some((name) => name.startsWith("emailChange")),
    names.join(),
  );
  assert.ok(!names.includes("password") && !names.includes("resetPasswordToken") && !names.includes("email"));
});

test("the document middleware drops them from the user's documents only", async () => {
  const extended = points();
  extendSessionCheck(extended);
  extendTwoFactor(extended);
  extendHiddenAccountFields(extended);
  const middlewares = extended.documentMiddlewares;
  assert.equal(middlewares.length, 1);
  const entry = () => ({ id: 1, email: "a@example.com", twoFactorSecret: "v1.x", twoFactorEnabled: true });
  const users = await middlewares[0]({ uid: "plugin::users-permissions.user" }, async () => [entry()]);
  assert.deepEqual(users, [{ id: 1, email: "a@example.com" }]);
  const page = await middlewares[0]({ uid: "api::page.page" }, async () => entry());
  assert.deepEqual(page, entry(), "other content types are left alone");
});

test("withoutFields: an entry, a list, a delete's entries, null", () => {
  const names = ["secret", "step"];
  const entry = () => ({ id: 1, secret: [], step: 3 });
  assert.deepEqual(withoutFields(entry(), names), { id: 1 });
  assert.deepEqual(withoutFields([entry(), null], names), [{ id: 1 }, null]);
  assert.deepEqual(withoutFields({ documentId: "d", entries: [entry()] }, names), {
    documentId: "d",
    entries: [{ id: 1 }],
  });
  assert.equal(withoutFields(null, names), null);
  assert.equal(withoutFields(3, names), 3);
});
