"use strict";

/**
 * Admin RBAC for the CMS's own admin actions. An admin token alone (admin-token.js) is not
 * enough: an Author could otherwise purge the whole CDN or republish every redirect. Each action
 * is a custom admin permission (Strapi 5 admin action provider), shown under
 * Settings → Administration panel → Roles → Settings → "Site cache", and each endpoint
 * checks it with Strapi's own permission engine (the admin user's roles → their permissions).
 *
 * - Super Admin: has every registered action (Strapi re-grants all actions to that role on every
 *   start), and is also allowed here explicitly.
 * - Editor: granted once (grantEditorOnce) — on the first start with this code, so a new database
 *   and an existing one both get it; an admin who later removes it from the Editor role keeps it
 *   removed (a marker in Strapi's core store records that the grant was done).
 * - Author and custom roles: not granted; a Super Admin can tick it in the role editor.
 */

const SUPER_ADMIN_CODE = "strapi-super-admin";
const EDITOR_CODE = "strapi-editor";

/** `uid` → actionId `api::<uid>` (an application action: no pluginName). */
const ACTIONS = [
  { uid: "site-cache.revalidate", displayName: "Revalidate the site cache (manual revalidation)" },
  { uid: "site-cache.purge-cdn", displayName: "Purge the CDN" },
  { uid: "site-cache.recalculate-hierarchy", displayName: "Recalculate the page hierarchy (paths, redirects)" },
];

const actionId = (uid) => `api::${uid}`;

/** The actionIds the endpoints check. */
const PERMISSIONS = {
  revalidate: actionId("site-cache.revalidate"),
  purgeCdn: actionId("site-cache.purge-cdn"),
  recalculateHierarchy: actionId("site-cache.recalculate-hierarchy"),
};

const DISPLAY_NAMES = Object.fromEntries(ACTIONS.map((a) => [actionId(a.uid), a.displayName]));

/**
 * Registers the actions. Call from register(), not bootstrap(): Strapi's admin bootstrap deletes
 * role permissions whose action is not registered (cleanPermissionsInDatabase) and re-grants the
 * Super Admin every registered action, and the application's bootstrap runs after it.
 */
async function registerAdminPermissions(strapi) {
  await strapi
    .service("admin::permission")
    .actionProvider.registerMany(
      ACTIONS.map(({ uid, displayName }) => ({ section: "settings", category: "site cache", uid, displayName })),
    );
}

const STORE = { type: "core", name: "site-cache-permissions" };
const GRANTED_KEY = "editor-granted";

/**
 * Gives the Editor role each action once (bootstrap). Idempotent: an action already on the role
 * is not added again, and an action whose grant is recorded is never re-added (so an admin's
 * removal sticks across restarts). No Editor role (deleted): nothing is granted or recorded.
 */
async function grantEditorOnce(strapi) {
  const store = strapi.store(STORE);
  const done = new Set((await store.get({ key: GRANTED_KEY })) ?? []);
  const pending = Object.values(PERMISSIONS).filter((action) => !done.has(action));
  if (pending.length === 0) return { granted: [] };

  const editor = await strapi.db.query("admin::role").findOne({ where: { code: EDITOR_CODE }, select: ["id"] });
  if (!editor) return { granted: [] };
  const existing = await strapi.db.query("admin::permission").findMany({
    where: { role: { id: editor.id }, action: { $in: pending } },
    select: ["action"],
  });
  const have = new Set(existing.map((p) => p.action));
  const toAdd = pending.filter((action) => !have.has(action));
  if (toAdd.length > 0) {
    await strapi.service("admin::role").addPermissions(
      editor.id,
      toAdd.map((action) => ({ action })),
    );
    strapi.log.info(`[admin-permission] granted to the Editor role: ${toAdd.join(", ")}`);
  }
  await store.set({ key: GRANTED_KEY, value: [...done, ...pending] });
  return { granted: toAdd };
}

/**
 * May this admin user (an admin::user with its roles) run `action`? Strapi's permission engine:
 * the permissions of the user's roles, conditions included. Never throws (false on error).
 */
async function userCan(strapi, user, action) {
  if ((user?.roles ?? []).some((role) => role?.code === SUPER_ADMIN_CODE)) return true;
  try {
    const ability = await strapi.service("admin::permission").engine.generateUserAbility(user);
    return ability.can(action) === true;
  } catch (error) {
    strapi.log.error(`[admin-permission] could not check ${action} for admin ${user?.id}: ${error?.message}`);
    return false;
  }
}

/** The 403 answer of an admin without `action`. */
function missingPermission(action) {
  const name = DISPLAY_NAMES[action] ?? action;
  return {
    status: 403,
    message:
      `Your admin role does not have the permission "${name}" (${action}). ` +
      "A Super Admin can grant it under Settings → Administration panel → Roles.",
  };
}

module.exports = { ACTIONS, PERMISSIONS, registerAdminPermissions, grantEditorOnce, userCan, missingPermission };
