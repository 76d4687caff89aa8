"use strict";

const { errors } = require("@strapi/utils");

/**
 * What an editor's write of a scheduled type meets (a document middleware;
 * docs/decisions/0039-scheduled-publishing.md):
 * - Publish while the draft's "publish at" is still ahead is refused (400), nothing written: the
 *   schedule is the editor's word on when it goes live, and a Publish pressed next to it must not
 *   overrule it silently (the finding of issue 32: a post dated next June live at once). Save keeps
 *   the schedule; clearing "publish at" and pressing Publish publishes now.
 * - Publish with a "publish at" already past publishes, and clears it (it is done).
 * - "unpublish at" not after "publish at" is refused (400): the document would never be shown.
 * - A clone (the admin's Duplicate) starts without a schedule: the copy is a new draft that nobody
 *   scheduled.
 * Who may set a schedule at all is the route policy `plugin::site-cache.may-schedule`
 * (policies/may-schedule.js).
 */

const isPublishLike = (action, params) =>
  action === "publish" || ((action === "create" || action === "update") && params?.status === "published");

const time = (value) => {
  if (value === null || value === undefined || value === "") return null;
  const ms = value instanceof Date ? value.getTime() : Date.parse(String(value));
  return Number.isNaN(ms) ? null : ms;
};

function refuse(message, path) {
  throw new errors.ValidationError(message, { errors: [{ path: [path], message, name: "ValidationError" }] });
}

/** Pure: the refusal (message) a publish meets, given the draft's `publishAt` values and the clock, or null. */
function publishRefusal(publishAts, nowMs) {
  const ahead = publishAts.map(time).filter((ms) => ms !== null && ms > nowMs);
  if (ahead.length === 0) return null;
  const at = new Date(Math.min(...ahead)).toISOString();
  return (
    `This entry is scheduled to be published at ${at} ("Publish at"). ` +
    `Press Save to keep the schedule, or clear "Publish at" and press Publish to publish it now.`
  );
}

/** Pure: the refusal a save with both times meets, or null. */
function orderRefusal(data) {
  const publishAt = time(data?.publishAt);
  const unpublishAt = time(data?.unpublishAt);
  if (publishAt === null || unpublishAt === null || unpublishAt > publishAt) return null;
  return `"Unpublish at" must be later than "Publish at": as saved, the entry would never be shown.`;
}

async function draftPublishAts(strapi, uid, declaration, params) {
  if (!params?.documentId) return [];
  let locale = params.locale;
  if (declaration.localized && !locale) locale = await strapi.plugin("i18n").service("locales").getDefaultLocale();
  const where = { documentId: params.documentId, publishedAt: null };
  if (declaration.localized && locale !== "*") where.locale = locale;
  const rows = await strapi.db.query(uid).findMany({ where, select: ["publishAt"] });
  return rows.map((row) => row.publishAt);
}

async function clearDraftPublishAt(strapi, uid, declaration, params) {
  const where = { documentId: params.documentId, publishedAt: null, publishAt: { $notNull: true } };
  if (declaration.localized && params.locale !== "*")
    where.locale = params.locale || (await strapi.plugin("i18n").service("locales").getDefaultLocale());
  await strapi.db.query(uid).updateMany({ where, data: { publishAt: null } });
}

function registerScheduleRules(strapi, { siteTypes, clock = () => Date.now() }) {
  strapi.documents.use(async (context, next) => {
    const { uid, action, params } = context;
    const declaration = siteTypes().declarationOf(uid);
    if (!declaration?.schedule) return next();
    if (action === "clone") {
      context.params = { ...params, data: { ...(params?.data ?? {}), publishAt: null, unpublishAt: null } };
      return next();
    }
    if (action === "create" || action === "update") {
      const message = orderRefusal(params?.data);
      if (message) refuse(message, "unpublishAt");
    }
    if (isPublishLike(action, params)) {
      const data = params?.data ?? {};
      const given = Object.hasOwn(data, "publishAt");
      const publishAts = given ? [data.publishAt] : await draftPublishAts(strapi, uid, declaration, params);
      const message = publishRefusal(publishAts, clock());
      if (message) refuse(message, "publishAt");
      // A publish-at already past is done by this publish: cleared, or the next tick would publish again.
      if (given && data.publishAt) context.params = { ...params, data: { ...data, publishAt: null } };
      else if (!given && publishAts.some(Boolean)) await clearDraftPublishAt(strapi, uid, declaration, params);
    }
    return next();
  });
}

module.exports = { registerScheduleRules, publishRefusal, orderRefusal };
