"use strict";

// Run with `npm test` in cms/ (node:test).
const test = require("node:test");
const assert = require("node:assert/strict");

const createPermissions = require("../../../../../src/plugins/accounts/server/services/permissions");

const { AUTHENTICATED_ACTIONS, LOGOUT_ACTION } = createPermissions;

/** A Strapi with an Authenticated role (id 1) holding `held`, recording what is created. */
function fakeStrapi({ held = [], role = { id: 1 } } = {}) {
  const created = [];
  const logs = [];
  return {
    created,
    logs,
    log: { info: (message) => logs.push(message), warn: (message) => logs.push(message) },
    db: {
      query: (uid) => {
        if (uid === "plugin::users-permissions.role") return { findOne: async () => role };
        return {
          findMany: async ({ where }) => {
            assert.deepEqual(where.role, { id: 1 });
            return held.filter((action) => where.action.$in.includes(action)).map((action) => ({ action }));
          },
          create: async ({ data }) => created.push(data),
        };
      },
    },
  };
}

test("the Authenticated role gets the plugin's actions and Strapi's logout (the site's sign-outs)", async () => {
  assert.ok(AUTHENTICATED_ACTIONS.includes("plugin::users-permissions.auth.logout"));
  assert.equal(LOGOUT_ACTION, "plugin::users-permissions.auth.logout");
  assert.ok(!AUTHENTICATED_ACTIONS.some((action) => /endThis|endAll/.test(action)), "the old sign-out routes are gone");
  const strapi = fakeStrapi();
  const added = await createPermissions({ strapi }).grantAuthenticated();
  assert.deepEqual(added, AUTHENTICATED_ACTIONS);
  assert.deepEqual(
    strapi.created,
    AUTHENTICATED_ACTIONS.map((action) => ({ action, role: 1 })),
  );
});

test("only what the role lacks is added (a hand-unticked logout comes back on the next start)", async () => {
  const strapi = fakeStrapi({ held: AUTHENTICATED_ACTIONS.filter((action) => action !== LOGOUT_ACTION) });
  assert.deepEqual(await createPermissions({ strapi }).grantAuthenticated(), [LOGOUT_ACTION]);
  assert.deepEqual(strapi.created, [{ action: LOGOUT_ACTION, role: 1 }]);
  const full = fakeStrapi({ held: AUTHENTICATED_ACTIONS });
  assert.deepEqual(await createPermissions({ strapi: full }).grantAuthenticated(), []);
  assert.deepEqual(full.created, []);
});

test("without an Authenticated role: a warning, nothing created", async () => {
  const strapi = fakeStrapi({ role: null });
  assert.deepEqual(await createPermissions({ strapi }).grantAuthenticated(), []);
  assert.match(strapi.logs[0], /no Authenticated role/);
});
