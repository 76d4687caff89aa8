"use strict";

/**
 * The plugin's admin RBAC actions. An admin token alone is not enough: an Author could otherwise
 * purge the whole CDN or republish every redirect. Each admin route (routes/admin/index.js)
 * names its action in an `admin::hasPermissions` policy; Strapi checks the admin's roles.
 * Shown under Settings → Administration panel → Roles → Plugins → "Site cache".
 *
 * - Super Admin: Strapi grants it every registered action on every start.
 * - Editor: granted once (grantEditorOnce): an existing database's from the plugin's bootstrap, a
 *   new database's when Strapi's admin bootstrap (after the plugins') creates the role
 *   (watchEditorCreation); an admin who later removes one from the Editor role keeps it removed (a
 *   marker in Strapi's core store records that the grant was done).
 * - Author and custom roles: not granted; a Super Admin can tick them in the role editor.
 */

const PLUGIN = "site-cache";
const EDITOR_CODE = "strapi-editor";

const ACTIONS = [
  { uid: "revalidate", displayName: "Revalidate the site cache (manual revalidation, failures page)" },
  { uid: "purge-cdn", displayName: "Purge the CDN" },
  { uid: "recalculate-hierarchy", displayName: "Recalculate the page hierarchy (paths, redirects)" },
];

const actionId = (uid) => `plugin::${PLUGIN}.${uid}`;

/** The actionIds the routes' policies name. */
const PERMISSIONS = {
  revalidate: actionId("revalidate"),
  purgeCdn: actionId("purge-cdn"),
  recalculateHierarchy: actionId("recalculate-hierarchy"),
};

/**
 * Before this plugin the same actions were application actions (`api::site-cache.<uid>`).
 * Their grants (any role) and the Editor marker are carried over to the plugin's ids, so no
 * role loses or regains an action by the move.
 */
const FORMER = Object.fromEntries(ACTIONS.map(({ uid }) => [`api::site-cache.${uid}`, actionId(uid)]));

/**
 * Registers the actions. From register(), not bootstrap(): Strapi's admin bootstrap deletes
 * role permissions whose action is not registered and re-grants the Super Admin every
 * registered action, and it runs before this plugin's bootstrap.
 */
async function registerAdminActions(strapi) {
  await strapi
    .service("admin::permission")
    .actionProvider.registerMany(
      ACTIONS.map(({ uid, displayName }) => ({ section: "plugins", pluginName: PLUGIN, uid, displayName })),
    );
}

const STORE = { type: "core", name: "site-cache-permissions" };
const GRANTED_KEY = "editor-granted";

/**
 * Renames the former actions' grants to the plugin's ids (a no-op once done). Runs after the
 * database schema sync and before the admin's bootstrap prunes unregistered actions.
 */
async function carryOverFormerActions(strapi) {
  for (const [former, current] of Object.entries(FORMER)) {
    await strapi.db.query("admin::permission").updateMany({ where: { action: former }, data: { action: current } });
  }
  const store = strapi.store(STORE);
  const done = (await store.get({ key: GRANTED_KEY })) ?? [];
  if (done.some((action) => action in FORMER))
    await store.set({ key: GRANTED_KEY, value: [...new Set(done.map((action) => FORMER[action] ?? action))] });
}

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
    strapi.log.info(`[site-cache] granted to the Editor role: ${toAdd.join(", ")}`);
  }
  await store.set({ key: GRANTED_KEY, value: [...done, ...pending] });
  return { granted: toAdd };
}

/**
 * A new database: Strapi's admin bootstrap creates the Editor role after the plugins' bootstraps
 * ran; it gets the actions as it is created (Strapi adds its own content permissions after).
 */
function watchEditorCreation(strapi) {
  strapi.db.lifecycles.subscribe({
    models: ["admin::role"],
    async afterCreate({ result }) {
      if (result?.code === EDITOR_CODE) await grantEditorOnce(strapi);
    },
  });
}

/** The policy of an admin route: Strapi's own check of the admin's permission. */
const requires = (action) => [{ name: "admin::hasPermissions", config: { actions: [action] } }];

module.exports = {
  ACTIONS,
  PERMISSIONS,
  FORMER,
  registerAdminActions,
  carryOverFormerActions,
  grantEditorOnce,
  watchEditorCreation,
  requires,
};
