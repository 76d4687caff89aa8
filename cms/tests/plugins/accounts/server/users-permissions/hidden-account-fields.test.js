"use strict";

// Run with `npm test` in cms/ (node:test).
const test = require("node:test");
const assert = require("node:assert/strict");

const {
  extendHiddenAccountFields,
  hiddenFieldNames,
  withoutFields,
} = require("../../../src/extensions/users-permissions/hidden-account-fields");
const { extendUsersPermissions } = require("../../../src/extensions/users-permissions/sessions-valid-after");
const { extendTwoFactor } = require("../../../src/extensions/users-permissions/two-factor-fields");
const { extendEmailChange } = require("../../../src/extensions/users-permissions/email-change-fields");

/** The users-permissions plugin as Strapi hands it to ./strapi-server.js, reduced to what the extensions touch. */
function fakePlugin(registered) {
  return {
    contentTypes: {
      user: {
        schema: {
          attributes: {
            email: { type: "email" },
            password: { type: "password", private: true, configurable: false, searchable: false },
            resetPasswordToken: { type: "string", private: true, configurable: false },
          },
        },
      },
    },
    services: { jwt: () => ({}) },
    controllers: { auth: () => ({}) },
    register: async () => registered.push("plugin's own"),
  };
}

test("every field the extensions add is hidden; Strapi's own private fields are not touched", () => {
  const plugin = extendEmailChange(extendTwoFactor(extendUsersPermissions(fakePlugin([]))));
  const names = hiddenFieldNames(plugin.contentTypes.user.schema.attributes);
  for (const name of ["sessionsValidAfter", "revokedTokens", "twoFactorSecret", "twoFactorRecoveryCodes"]) {
    assert.ok(names.includes(name), name);
  }
  assert.ok(
    names.some((name) => name.startsWith("emailChange")),
    names.join(),
  );
  assert.ok(!names.includes("password") && !names.includes("resetPasswordToken") && !names.includes("email"));
});

test("the document middleware drops them from the user's documents only, after the plugin's own register", async () => {
  const registered = [];
  const plugin = extendHiddenAccountFields(extendTwoFactor(extendUsersPermissions(fakePlugin(registered))));
  const middlewares = [];
  await plugin.register({ strapi: { documents: { use: (middleware) => middlewares.push(middleware) } } });
  assert.deepEqual(registered, ["plugin's own"]);
  assert.equal(middlewares.length, 1);
  const entry = () => ({ id: 1, email: "a@example.com", twoFactorSecret: "v1.x", sessionsValidAfter: "2026" });
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
