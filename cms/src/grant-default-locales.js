"use strict";

const { ALL_LOCALES, decidedTypes } = require("./admin-grants");

/**
 * Gives a new database's Editor and Author roles the grants src/admin-grants.js decides on the
 * site's localized types, in every locale, once.
 *
 * Why (Strapi 5.54, docs/decisions/0030): the admin's first start (createRolesIfNoneExist) grants
 * the default roles every content-manager action without a `locales` property; the same bootstrap's
 * cleanPermissionsInDatabase then deletes each grant whose every applicable property is missing:
 * `delete` and `publish` apply to `locales` only, so on a localized type they are gone, and the
 * `create`/`read`/`update` grants that stay (they carry `fields`) reach no locale (i18n's permission
 * engine reads a missing list as none). An Editor could neither edit, publish nor delete a page.
 *
 * Only on a database whose default roles Strapi created during this start (watched from register()),
 * and recorded in Strapi's core store, so an admin's later change in the role editor sticks across
 * restarts. An older database keeps what its admins set (docs/operations.md, "Upgrading").
 */

const STORE = { type: "core", name: "admin-grants" };
const GRANTED_KEY = "default-role-locales-granted";
const DEFAULT_ROLES = ["strapi-editor", "strapi-author"];

/** The default roles Strapi creates in this process (its admin bootstrap, on an empty database). */
const createdThisStart = new Set();

/** From register(): notes each default role as the admin's bootstrap creates it. */
function watchDefaultRoleCreation(strapi) {
  strapi.db.lifecycles.subscribe({
    models: ["admin::role"],
    afterCreate({ result }) {
      if (DEFAULT_ROLES.includes(result?.code)) createdThisStart.add(result.code);
    },
  });
}

const isLocalized = (strapi, uid) =>
  Boolean(strapi.contentTypes[uid]) &&
  strapi.plugin("i18n").service("content-types").isLocalizedContentType(strapi.contentTypes[uid]);

/** What the table decides for `roleCode` on the localized types: `{ action, subject, conditions }`. */
function decidedGrants(strapi, roleCode) {
  return decidedTypes(strapi.contentTypes).flatMap(([subject, decision]) => {
    const grant = decision?.[roleCode];
    if (!grant || grant.locales !== ALL_LOCALES || !isLocalized(strapi, subject)) return [];
    return grant.actions.map((action) => ({ action, subject, conditions: grant.conditions ?? [] }));
  });
}

/** A new grant as Strapi's first start makes it: the type's every field where the action takes fields. */
function newGrant(strapi, { action, subject, conditions }, locales) {
  const actionProvider = strapi.service("admin::permission").actionProvider;
  const [made] = strapi
    .service("admin::content-type")
    .getPermissionsWithNestedFields([{ ...actionProvider.get(action), subjects: [subject] }]);
  const fields = made?.properties?.fields;
  return { action, subject, conditions, properties: { ...(fields ? { fields } : {}), locales } };
}

/**
 * From bootstrap(), after the seed (which adds the demo site's locales): every locale the CMS has
 * on each decided grant, the missing grants added. Returns what it did per role (logged).
 */
async function grantDefaultRoleLocalesOnce(strapi) {
  const store = strapi.store(STORE);
  if (await store.get({ key: GRANTED_KEY })) return {};
  const done = {};
  const locales = (await strapi.plugin("i18n").service("locales").find()).map(({ code }) => code).sort();
  for (const code of createdThisStart) {
    const role = await strapi.db.query("admin::role").findOne({ where: { code }, select: ["id"] });
    if (!role) continue;
    const held = await strapi.db.query("admin::permission").findMany({
      where: { role: { id: role.id } },
      select: ["id", "action", "subject", "properties"],
    });
    const added = [];
    let updated = 0;
    for (const grant of decidedGrants(strapi, code)) {
      const existing = held.find(({ action, subject }) => action === grant.action && subject === grant.subject);
      if (!existing) {
        added.push(newGrant(strapi, grant, locales));
      } else if (!(existing.properties?.locales?.length > 0)) {
        await strapi.db
          .query("admin::permission")
          .update({ where: { id: existing.id }, data: { properties: { ...existing.properties, locales } } });
        updated += 1;
      }
    }
    if (added.length > 0) await strapi.service("admin::role").addPermissions(role.id, added);
    done[code] = { added: added.length, updated };
  }
  await store.set({ key: GRANTED_KEY, value: true });
  if (Object.keys(done).length > 0)
    strapi.log.info(
      `[admin-grants] default roles' grants on localized types, in ${locales.join(", ")}: ${JSON.stringify(done)}`,
    );
  return done;
}

module.exports = { watchDefaultRoleCreation, grantDefaultRoleLocalesOnce };
