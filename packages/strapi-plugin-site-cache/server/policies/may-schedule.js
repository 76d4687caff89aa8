"use strict";

const { errors } = require("@strapi/utils");

const { SCHEDULE_FIELDS } = require("../services/revalidation/declarations");

/**
 * `plugin::site-cache.may-schedule`, on the Content Manager's create and update routes of
 * collection types (added in register.js): a schedule publishes or unpublishes with nobody
 * pressing a button, so setting one is a publish. An admin whose role may not publish the type (an
 * Author: src/admin-grants.js) may not set, move or clear "Publish at" or "Unpublish at": 403 with
 * the reason, nothing written (docs/security.md, finding 53). The edit view sends every field
 * on each save, so values equal to the stored draft's pass.
 */

const REFUSED =
  'Your role cannot publish this content type, so it cannot set "Publish at" or "Unpublish at": ask an editor to schedule it.';

const time = (value) => {
  if (value === null || value === undefined || value === "") return null;
  const ms = Date.parse(String(value instanceof Date ? value.toISOString() : value));
  return Number.isNaN(ms) ? String(value) : ms;
};

/** Pure: the schedule fields a write changes, from its body and the stored draft (none: a create). */
function changedScheduleFields(body, stored) {
  return SCHEDULE_FIELDS.filter(
    (field) => Object.hasOwn(body ?? {}, field) && time(body[field]) !== time(stored?.[field]),
  );
}

async function storedDraft(strapi, uid, declaration, documentId, locale) {
  if (!documentId) return null;
  const where = { documentId, publishedAt: null };
  if (declaration.localized)
    where.locale = locale || (await strapi.plugin("i18n").service("locales").getDefaultLocale());
  return strapi.db.query(uid).findOne({ where, select: [...SCHEDULE_FIELDS] });
}

async function maySchedule(policyContext, _config, { strapi }) {
  const uid = policyContext.params?.model;
  const declaration = strapi.plugin("site-cache").service("site-types").declarationOf(uid);
  if (!declaration?.schedule) return true;
  const body = policyContext.request?.body ?? {};
  if (!SCHEDULE_FIELDS.some((field) => Object.hasOwn(body, field))) return true;
  const checker = strapi
    .plugin("content-manager")
    .service("permission-checker")
    .create({ userAbility: policyContext.state.userAbility, model: uid });
  if (checker.can.publish()) return true;
  const stored = await storedDraft(
    strapi,
    uid,
    declaration,
    policyContext.params.id,
    policyContext.request.query?.locale,
  );
  if (changedScheduleFields(body, stored).length === 0) return true;
  throw new errors.PolicyError(REFUSED);
}

/** The Content Manager's routes that write a collection type's draft from a body. */
const GUARDED = new Set(["collection-types.create", "collection-types.update"]);

/** In the plugin's register(): before routing starts. */
function guardScheduleWrites(strapi) {
  const routers = Object.values(strapi.plugin("content-manager").routes ?? {});
  const routes = routers.flatMap((router) => router.routes ?? []).filter((route) => GUARDED.has(route.handler));
  if (routes.length !== GUARDED.size) {
    throw new Error(
      "@strapi/content-manager's create and update routes were not found to guard schedules: check the upgrade.",
    );
  }
  for (const route of routes) {
    route.config = {
      ...route.config,
      policies: [...(route.config?.policies ?? []), "plugin::site-cache.may-schedule"],
    };
  }
}

module.exports = { maySchedule, guardScheduleWrites, changedScheduleFields, REFUSED };
