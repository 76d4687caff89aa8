"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");

const {
  ACTIONS,
  PERMISSIONS,
  registerAdminActions,
  carryOverFormerActions,
  grantEditorOnce,
  requires,
} = require("../../../../../packages/strapi-plugin-site-cache/server/admin-actions");

/** A stand-in for the bits of strapi these functions use: an in-memory store, roles and permissions. */
function fakeStrapi({ editor = { id: 2 }, permissions = [], stored = undefined } = {}) {
  const state = { stored, permissions: [...permissions], registered: null, added: [], logs: [] };
  const strapi = {
    state,
    log: { info: (m) => state.logs.push(m), warn: (m) => state.logs.push(m), error: (m) => state.logs.push(m) },
    store: () => ({
      get: async () => state.stored,
      set: async ({ value }) => {
        state.stored = value;
      },
    }),
    db: {
      query: (uid) => ({
        findOne: async ({ where }) => (uid === "admin::role" && where.code === "strapi-editor" ? editor : null),
        findMany: async ({ where }) =>
          state.permissions
            .filter((p) => p.role === where.role.id && where.action.$in.includes(p.action))
            .map(({ action }) => ({ action })),
        updateMany: async ({ where, data }) => {
          for (const p of state.permissions) if (p.action === where.action) p.action = data.action;
        },
      }),
    },
    service: (name) => {
      if (name === "admin::role") {
        return {
          addPermissions: async (roleId, list) => {
            for (const { action } of list) state.permissions.push({ role: roleId, action });
            state.added.push(...list.map((p) => p.action));
          },
        };
      }
      if (name === "admin::permission") {
        return {
          actionProvider: {
            registerMany: async (actions) => {
              state.registered = actions;
            },
          },
        };
      }
      throw new Error(`unexpected service ${name}`);
    },
  };
  return strapi;
}

test("registers one plugin action per admin endpoint (plugin::site-cache.…); each route policy names one", async () => {
  const strapi = fakeStrapi();
  await registerAdminActions(strapi);
  assert.equal(strapi.state.registered.length, 3);
  for (const action of strapi.state.registered) {
    assert.equal(action.section, "plugins");
    assert.equal(action.pluginName, "site-cache");
    assert.match(action.uid, /^[a-z]([a-z-]+)[a-z]$/);
  }
  assert.deepEqual(ACTIONS.map((a) => `plugin::site-cache.${a.uid}`).sort(), Object.values(PERMISSIONS).sort());
  assert.deepEqual(requires(PERMISSIONS.purgeCdn), [
    { name: "admin::hasPermissions", config: { actions: ["plugin::site-cache.purge-cdn"] } },
  ]);
});

test("carryOverFormerActions: grants and the Editor marker of the former api::site-cache.* ids keep their meaning", async () => {
  const strapi = fakeStrapi({
    permissions: [
      { role: 3, action: "api::site-cache.purge-cdn" },
      { role: 2, action: "api::site-cache.revalidate" },
    ],
    stored: ["api::site-cache.revalidate", "api::site-cache.purge-cdn", "api::site-cache.recalculate-hierarchy"],
  });
  await carryOverFormerActions(strapi);
  assert.deepEqual(strapi.state.permissions, [
    { role: 3, action: PERMISSIONS.purgeCdn },
    { role: 2, action: PERMISSIONS.revalidate },
  ]);
  assert.deepEqual(strapi.state.stored.sort(), Object.values(PERMISSIONS).sort());
  // The Editor lost two actions under the former ids: the grant does not bring them back.
  assert.deepEqual((await grantEditorOnce(strapi)).granted, []);
  await carryOverFormerActions(strapi); // a second start: nothing left to carry over
  assert.equal(strapi.state.permissions.length, 2);
});

test("grantEditorOnce: grants every action to the Editor on the first start, records it", async () => {
  const strapi = fakeStrapi();
  const { granted } = await grantEditorOnce(strapi);
  assert.deepEqual(granted.sort(), Object.values(PERMISSIONS).sort());
  assert.deepEqual(strapi.state.stored.sort(), Object.values(PERMISSIONS).sort());
  assert.equal(strapi.state.permissions.filter((p) => p.role === 2).length, 3);
});

test("grantEditorOnce: a second start adds nothing; an action removed later is not re-added", async () => {
  const strapi = fakeStrapi();
  await grantEditorOnce(strapi);
  strapi.state.permissions = strapi.state.permissions.filter((p) => p.action !== PERMISSIONS.purgeCdn);
  strapi.state.added.length = 0;
  assert.deepEqual((await grantEditorOnce(strapi)).granted, []);
  assert.deepEqual(strapi.state.added, []);
  assert.equal(
    strapi.state.permissions.some((p) => p.action === PERMISSIONS.purgeCdn),
    false,
  );
});

test("grantEditorOnce: never duplicates an action the Editor has; grants a newly added action once", async () => {
  const strapi = fakeStrapi({
    permissions: [{ role: 2, action: PERMISSIONS.revalidate }],
    stored: [PERMISSIONS.recalculateHierarchy],
  });
  const { granted } = await grantEditorOnce(strapi);
  // recalculateHierarchy was recorded (then removed by an admin): not re-added; revalidate: already there.
  assert.deepEqual(granted, [PERMISSIONS.purgeCdn]);
  assert.equal(strapi.state.permissions.filter((p) => p.action === PERMISSIONS.revalidate).length, 1);
  assert.equal(
    strapi.state.permissions.some((p) => p.action === PERMISSIONS.recalculateHierarchy),
    false,
  );
  assert.deepEqual(strapi.state.stored.sort(), Object.values(PERMISSIONS).sort());
});

test("grantEditorOnce: no Editor role (deleted) grants and records nothing", async () => {
  const strapi = fakeStrapi({ editor: null });
  assert.deepEqual((await grantEditorOnce(strapi)).granted, []);
  assert.equal(strapi.state.stored, undefined);
});
