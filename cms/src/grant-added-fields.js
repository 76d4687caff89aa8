"use strict";

const { decidedTypes, decisionFor, ROLES } = require("./admin-grants");

/**
 * Gives the Editor and Author roles, on each start, the fields an upgrade added to a type
 * src/admin-grants.js grants them. Strapi lists a role's content-manager fields one by one
 * (`properties.fields` of its create, read and update grants, `seo.shareImageAlt` for a
 * component's field) and never adds a new one to an existing role: an editor could not fill a
 * new field until a Super Admin ticked it in the role editor.
 *
 * "Added since" is told from a record, not from the role: Strapi's core store keeps, per type,
 * the field list this step last synced the roles against. A field in the type but not in the
 * record is new: it is added to each of the two roles' grants on the type that take fields. A
 * field in the record but not in a role's grant was removed by an admin: it stays removed (the
 * record is all this step compares, so an admin's removal is never undone). A database from before
 * the record has none: there the record is taken to be the type's fields less those this project
 * added before it kept one (BEFORE_THE_RECORD), which no admin could have removed. Roles an admin
 * made are theirs to manage. On a new database the first start's record is the types' fields, and
 * the roles already hold them all.
 */

const STORE = { type: "core", name: "admin-grants" };
const SYNCED_KEY = "role-fields-synced";
const FIELDS_ACTION = "plugin::content-manager.explorer.read";

/**
 * The fields added by upgrades made before the record existed (issue 32: alternative text, links
 * by reference, navbar drop-downs; issue 33: scheduled publishing), per type. Only read where a
 * database has no record; a field a type does not have is ignored.
 */
const BEFORE_THE_RECORD = {
  "api::article.article": ["coverAlt", "publishAt", "unpublishAt"],
  "api::page.page": ["seo.shareImageAlt", "publishAt", "unpublishAt"],
  "api::footer.footer": ["links.page", "links.article"],
  "api::navbar.navbar": [
    "links.page",
    "links.article",
    "links.children.label",
    "links.children.page",
    "links.children.article",
    "links.children.url",
  ],
};

/** The type's every field, nested paths for components, as Strapi lists them in a new grant. */
function fieldsOf(strapi, subject) {
  const actionProvider = strapi.service("admin::permission").actionProvider;
  const [made] = strapi
    .service("admin::content-type")
    .getPermissionsWithNestedFields([{ ...actionProvider.get(FIELDS_ACTION), subjects: [subject] }]);
  return made?.properties?.fields ?? [];
}

/** The types the table grants the Editor or the Author, with this start's fields. */
function grantedTypes(strapi) {
  return decidedTypes(strapi.contentTypes)
    .filter(([, decision]) => decision?.[ROLES.EDITOR] || decision?.[ROLES.AUTHOR])
    .map(([subject]) => ({ subject, fields: fieldsOf(strapi, subject) }));
}

/** Adds `added` to the field list of each of the role's grants on `subject` that has one; returns the actions changed. */
async function addToRole(strapi, roleCode, subject, added) {
  const grants = await strapi.db.query("admin::permission").findMany({
    where: { subject, role: { code: roleCode } },
    select: ["id", "action", "properties"],
  });
  const changed = [];
  for (const grant of grants) {
    const held = grant.properties?.fields;
    if (!Array.isArray(held)) continue;
    const missing = added.filter((field) => !held.includes(field));
    if (missing.length === 0) continue;
    await strapi.db.query("admin::permission").update({
      where: { id: grant.id },
      data: { properties: { ...grant.properties, fields: [...held, ...missing] } },
    });
    changed.push(`${grant.action.split(".").pop()} +${missing.join(",")}`);
  }
  return changed;
}

/** From bootstrap(), after the admin's (which creates a new database's roles). Returns what it added, per role and type. */
async function grantAddedFields(strapi) {
  const store = strapi.store(STORE);
  const synced = (await store.get({ key: SYNCED_KEY })) ?? {};
  const done = [];
  for (const { subject, fields } of grantedTypes(strapi)) {
    const known = synced[subject] ?? fields.filter((field) => !(BEFORE_THE_RECORD[subject] ?? []).includes(field));
    const added = fields.filter((field) => !known.includes(field));
    if (added.length > 0) {
      for (const roleCode of [ROLES.EDITOR, ROLES.AUTHOR]) {
        if (!decisionFor(subject, strapi.contentTypes[subject])?.[roleCode]) continue;
        const changed = await addToRole(strapi, roleCode, subject, added);
        if (changed.length > 0) done.push(`${roleCode} ${subject} ${changed.join(" ")}`);
      }
    }
    synced[subject] = fields;
  }
  await store.set({ key: SYNCED_KEY, value: synced });
  if (done.length > 0) strapi.log.info(`[admin-grants] fields added since the last start granted: ${done.join("; ")}`);
  return done;
}

module.exports = { grantAddedFields, BEFORE_THE_RECORD };
