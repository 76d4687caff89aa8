"use strict";

/**
 * An article's `publishDate`: the date the site shows and sorts by (docs/cms-contract.md,
 * "Articles"). Strapi moves `publishedAt` on every publish (a republish after an edit is a new
 * published row), so the site never reads it; `publishDate` is set on an article's first publish
 * in a locale and kept by every later one. An editor may still set it by hand (backdating an
 * imported post): a value the write brings is kept as it is.
 *
 * The rule is `publishDateFor`; the document middleware applies it to every write that publishes
 * an article (publish, or create/update with `status: 'published'`), before Strapi copies the
 * draft into the published version, so both carry the date.
 *
 * A publish that would leave a publish date still to come is refused (400, nothing written): the
 * site shows a published article at once, so a date next June put it at the top of the blog and
 * the feed, dated June (issue 32). Publishing later is "Publish at" (docs/scheduled-publishing.md);
 * a scheduled publish's `now` is the time it was scheduled for (src/index.js).
 */

const { errors } = require("@strapi/utils");

const ARTICLE = "api::article.article";

/** A date the database gave back or a write brings, as an ISO string, or null for none. */
function asDate(value) {
  if (value === null || value === undefined || value === "") return null;
  const time = value instanceof Date ? value.getTime() : Date.parse(String(value));
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}

/**
 * The publish date a publish leaves: the one the write sets (`given`), else the one the article
 * already has in that locale (`kept`: its draft's or its published version's), else `now`.
 */
function publishDateFor({ given, kept, now }) {
  return asDate(given) ?? asDate(kept) ?? asDate(now);
}

const isPublishLike = (action, params) =>
  action === "publish" || ((action === "create" || action === "update") && params?.status === "published");

/** The rows (draft and published) of the document in `locale` ('*' or none: every locale). */
async function rowsOf(strapi, documentId, locale) {
  if (!documentId) return [];
  const where = { documentId, ...(locale && locale !== "*" ? { locale } : {}) };
  return strapi.db.query(ARTICLE).findMany({ where, select: ["id", "locale", "publishedAt", "publishDate"] });
}

/** The date each locale already has: a draft's, else its published version's. */
function keptByLocale(rows) {
  const kept = new Map();
  for (const row of rows) {
    const date = asDate(row.publishDate);
    if (date && (!kept.has(row.locale) || row.publishedAt === null)) kept.set(row.locale, date);
  }
  return kept;
}

/** Pure: the refusal a publish leaving `publishDate` meets at `clockMs`, or null. */
function futureDateRefusal(publishDate, clockMs) {
  const date = asDate(publishDate);
  if (!date || Date.parse(date) <= clockMs) return null;
  return (
    `The publish date ${date} has not come yet: a published article shows at once, under that date. ` +
    `To publish it then, clear "publishDate" and set "Publish at".`
  );
}

function refuseFuture(publishDate, clock) {
  const message = futureDateRefusal(publishDate, clock());
  if (message)
    throw new errors.ValidationError(message, {
      errors: [{ path: ["publishDate"], message, name: "ValidationError" }],
    });
}

function registerPublishDate(strapi, { now = () => new Date(), clock = () => Date.now() } = {}) {
  strapi.documents.use(async (context, next) => {
    const { uid, action, params } = context;
    if (uid !== ARTICLE || !isPublishLike(action, params)) return next();
    // No locale: Strapi writes the default locale's version.
    const locale =
      params.locale && params.locale !== "*"
        ? params.locale
        : params.locale === "*"
          ? "*"
          : await strapi.plugin("i18n").service("locales").getDefaultLocale();
    const rows = await rowsOf(strapi, params.documentId, locale);
    const kept = keptByLocale(rows);
    if (action === "publish") {
      // Strapi publishes the draft: give each draft without a date the one it keeps, or now.
      for (const row of rows) if (row.publishedAt === null) refuseFuture(row.publishDate, clock);
      for (const row of rows) {
        if (row.publishedAt !== null || asDate(row.publishDate)) continue;
        const publishDate = publishDateFor({ given: null, kept: kept.get(row.locale), now: now() });
        await strapi.db.query(ARTICLE).update({ where: { id: row.id }, data: { publishDate } });
      }
      return next();
    }
    // create/update with status 'published': the write's own data, which becomes both versions.
    const data = params.data ?? {};
    const given = Object.hasOwn(data, "publishDate") ? data.publishDate : null;
    const publishDate = publishDateFor({ given, kept: kept.get(locale), now: now() });
    refuseFuture(publishDate, clock);
    context.params = { ...params, data: { ...data, publishDate } };
    return next();
  });
}

module.exports = { ARTICLE, publishDateFor, futureDateRefusal, registerPublishDate, asDate };
