"use strict";

/**
 * What each admin role may do on each content type: the one table a reviewer reads. Strapi's
 * first start grants its Editor and Author roles every content type the Content Manager shows;
 * anything those grants reach that this table does not list is a decision nobody made.
 *
 * - The site's editorial types: Editors everything, Authors their own entries (Strapi's defaults),
 *   in every locale (a new database's first start grants them: src/grant-default-locales.js).
 *   An API type declared for the site (a `site-cache` block in its schema: public content the site
 *   shows at its own address) is editorial by that declaration, unless this table says otherwise,
 *   so adding one (docs/add-a-content-type.md) needs no line here. Any other new API type is
 *   undecided until it is listed here (tests/integration/cms-admin-grants.test.ts fails naming it).
 * - `plugin::users-permissions.user`, the site's accounts: the Super Admin only. Email, pending
 *   email change, blocked, provider, sign-in bookkeeping are none of an editor's business, and a
 *   write there is a way into an account (Strapi 5.54 no longer grants it to Editors and Authors
 *   of a new database; older ones may hold it).
 * - The types the project's own plugins keep for themselves (the OAuth links, the recorded
 *   revalidation failures, any later one of these plugins): no admin role at all, not even the
 *   Super Admin (Strapi gives it read on every type at each start; removed right after). Only the
 *   plugins' code reads and writes them; the Site cache page lists the failures through its own
 *   routes (plugin::site-cache.revalidate).
 * - Every other type hidden from the Content Manager (Strapi's own: admin users, roles, tokens,
 *   uploads' rows, locales, ...): the Super Admin only, as Strapi has it.
 *
 * The Super Admin's other grants are Strapi's (every registered action, reset at each start). On
 * each start (src/index.js, src/remove-undecided-grants.js) every role loses its grants on the
 * types it may not touch; grants on editorial types are the admins' to change in the role editor.
 */

const SUPER_ADMIN = "strapi-super-admin";
const EDITOR = "strapi-editor";
const AUTHOR = "strapi-author";
const OWN_PLUGINS = ["site-cache", "accounts"];

const explorer = (...verbs) => verbs.map((verb) => `plugin::content-manager.explorer.${verb}`);
const IS_CREATOR = ["admin::is-creator"];
/**
 * On a localized type, a grant reaches only the locales it names (Strapi's i18n); this one names
 * every locale the CMS has when it is granted (src/grant-default-locales.js, a new database's first
 * start). A locale added later is the admins' to tick in the role editor, as Strapi has it.
 */
const ALL_LOCALES = "all locales";

/** Per role code: the actions it may have, and the conditions each such grant must carry. */
const EDITORIAL = {
  [EDITOR]: { actions: explorer("create", "read", "update", "delete", "publish"), locales: ALL_LOCALES },
  [AUTHOR]: { actions: explorer("create", "read", "update", "delete"), conditions: IS_CREATOR, locales: ALL_LOCALES },
};
/**
 * Personal data visitors sent (the forms plugin's submissions, docs/forms.md): Editors read, export
 * and delete them (a request to erase one); they never write them (only the site's posts do), and
 * Authors see none. Enforced on every start (isReservedFor): a grant beyond it is removed.
 */
const PERSONAL_DATA = { [EDITOR]: { actions: explorer("read", "delete") } };
const ENFORCED = new Set(["plugin::forms.submission"]);
/** The Super Admin alone (it holds every action Strapi registers). */
const SUPER_ADMIN_ONLY = {};
/** No admin role: the plugin's code alone. */
const PLUGIN_ONLY = null;

const CONTENT_TYPES = {
  "api::article.article": EDITORIAL,
  "api::author.author": EDITORIAL,
  "api::category.category": EDITORIAL,
  "api::error-page.error-page": EDITORIAL,
  "api::footer.footer": EDITORIAL,
  "api::navbar.navbar": EDITORIAL,
  "api::page.page": EDITORIAL,
  "api::redirect.redirect": EDITORIAL,
  // Your content types go here (docs/add-a-content-type.md): who may edit them, decided here.
  "plugin::users-permissions.user": SUPER_ADMIN_ONLY,
  "plugin::accounts.oauth-identity": PLUGIN_ONLY,
  "plugin::site-cache.revalidation-failure": PLUGIN_ONLY,
  "plugin::forms.submission": PERSONAL_DATA,
};

/** The grants that are not about a content type, per default role (the media library, the site cache's actions). */
const OTHER_ACTIONS = {
  [EDITOR]: [
    { action: "plugin::upload.read" },
    { action: "plugin::upload.configure-view" },
    { action: "plugin::upload.assets.create" },
    { action: "plugin::upload.assets.update" },
    { action: "plugin::upload.assets.download" },
    { action: "plugin::upload.assets.copy-link" },
    // The site-cache plugin's server/admin-actions.js (packages/strapi-plugin-site-cache): granted once, an admin may take them away.
    { action: "plugin::site-cache.revalidate" },
    { action: "plugin::site-cache.purge-cdn" },
    { action: "plugin::site-cache.recalculate-hierarchy" },
  ],
  [AUTHOR]: [
    { action: "plugin::upload.read", conditions: IS_CREATOR },
    { action: "plugin::upload.configure-view" },
    { action: "plugin::upload.assets.create" },
    { action: "plugin::upload.assets.update", conditions: IS_CREATOR },
    { action: "plugin::upload.assets.download" },
    { action: "plugin::upload.assets.copy-link" },
  ],
};

const ownedByOwnPlugin = (uid) => OWN_PLUGINS.some((name) => uid.startsWith(`plugin::${name}.`));

/**
 * The decision for `uid` (its content type `contentType`): EDITORIAL-like, SUPER_ADMIN_ONLY, PLUGIN_ONLY,
 * or undefined (undecided: a visible type the table does not list).
 */
function decisionFor(uid, contentType) {
  if (ownedByOwnPlugin(uid)) return PLUGIN_ONLY;
  if (uid in CONTENT_TYPES) return CONTENT_TYPES[uid];
  if (contentType?.pluginOptions?.["content-manager"]?.visible === false) return SUPER_ADMIN_ONLY;
  if (uid.startsWith("api::") && contentType?.pluginOptions?.["site-cache"]) return EDITORIAL;
  return undefined;
}

/** Every content type of `contentTypes` (strapi.contentTypes) with its decision, the undecided left out: `[uid, decision]`. */
const decidedTypes = (contentTypes) =>
  Object.entries(contentTypes)
    .map(([uid, contentType]) => [uid, decisionFor(uid, contentType)])
    .filter(([, decision]) => decision !== undefined);

const hasAll = (held = [], needed = []) => needed.every((condition) => held.includes(condition));

/**
 * Whether a default role's grant (`{ action, subject, conditions }`) is one the table decided.
 * The Super Admin: anything but a plugin-only type. Roles an admin made: not this table's to judge.
 */
function isDecided(roleCode, { action, subject, conditions = [] }, contentTypes) {
  if (subject) {
    const decision = decisionFor(subject, contentTypes[subject]);
    if (decision === PLUGIN_ONLY) return false;
    if (roleCode === SUPER_ADMIN) return true;
    const grant = decision?.[roleCode];
    return Boolean(grant?.actions.includes(action) && hasAll(conditions, grant.conditions));
  }
  if (roleCode === SUPER_ADMIN) return true;
  return (OTHER_ACTIONS[roleCode] ?? []).some(
    (allowed) => allowed.action === action && hasAll(conditions, allowed.conditions),
  );
}

/**
 * Whether the start removes a grant of `action` on `subject` from the role `roleCode` (any role,
 * custom ones too).
 */
function isReservedFor(roleCode, subject, contentTypes, action) {
  const decision = decisionFor(subject, contentTypes[subject]);
  if (decision === PLUGIN_ONLY) return true;
  if (ENFORCED.has(subject) && roleCode !== SUPER_ADMIN) return !decision?.[roleCode]?.actions.includes(action);
  return decision === SUPER_ADMIN_ONLY && roleCode !== SUPER_ADMIN;
}

module.exports = {
  ALL_LOCALES,
  CONTENT_TYPES,
  OTHER_ACTIONS,
  OWN_PLUGINS,
  ROLES: { SUPER_ADMIN, EDITOR, AUTHOR },
  decidedTypes,
  decisionFor,
  isDecided,
  isReservedFor,
  ownedByOwnPlugin,
};
