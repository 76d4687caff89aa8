"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");

const {
  ACTIONS,
  PERMISSIONS,
  registerAdminPermissions,
  grantEditorOnce,
  userCan,
  missingPermission,
} = require("../../src/revalidation/admin-permission");

/** A stand-in for the bits of strapi these functions use: an in-memory store, roles and permissions. */
function fakeStrapi({
  editor = { id: 2 },
  permissions = [],
  stored = undefined,
  ability = () => false,
  abilityThrows = false,
} = {}) {
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
          engine: {
            generateUserAbility: async (user) => {
              if (abilityThrows) throw new Error("db down");
              return { can: (action) => ability(user, action) };
            },
          },
        };
      }
      throw new Error(`unexpected service ${name}`);
    },
  };
  return strapi;
}

test("registers one settings action per admin endpoint, as application actions (api::…)", async () => {
  const strapi = fakeStrapi();
  await registerAdminPermissions(strapi);
  assert.equal(strapi.state.registered.length, 3);
  for (const action of strapi.state.registered) {
    assert.equal(action.section, "settings");
    assert.equal(action.category, "site cache");
    assert.equal(action.pluginName, undefined);
    assert.match(action.uid, /^[a-z]([a-z.-]+)[a-z]$/);
  }
  assert.deepEqual(ACTIONS.map((a) => `api::${a.uid}`).sort(), Object.values(PERMISSIONS).sort());
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

test("userCan: Strapi permission engine for the user; Super Admin always; false (logged) on errors", async () => {
  const allowed = fakeStrapi({ ability: (user, action) => user.id === 7 && action === PERMISSIONS.purgeCdn });
  assert.equal(await userCan(allowed, { id: 7, roles: [{ code: "strapi-editor" }] }, PERMISSIONS.purgeCdn), true);
  assert.equal(await userCan(allowed, { id: 7, roles: [{ code: "strapi-editor" }] }, PERMISSIONS.revalidate), false);
  assert.equal(await userCan(allowed, { id: 8, roles: [{ code: "strapi-author" }] }, PERMISSIONS.purgeCdn), false);
  assert.equal(
    await userCan(allowed, { id: 9, roles: [{ code: "strapi-super-admin" }] }, PERMISSIONS.revalidate),
    true,
  );
  const broken = fakeStrapi({ abilityThrows: true });
  assert.equal(await userCan(broken, { id: 7, roles: [] }, PERMISSIONS.purgeCdn), false);
  assert.match(broken.state.logs[0], /could not check/);
});

test("missingPermission: 403 naming the permission and where to grant it", () => {
  const answer = missingPermission(PERMISSIONS.purgeCdn);
  assert.equal(answer.status, 403);
  assert.match(answer.message, /"Purge the CDN" \(api::site-cache\.purge-cdn\)/);
  assert.match(answer.message, /Roles/);
});
