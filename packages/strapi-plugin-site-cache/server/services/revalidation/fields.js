"use strict";

/**
 * The attributes a site listing may filter or sort by, and which of them a write changed (rule C7,
 * docs/cms-contract.md "What a write sends"): the site records a field tag per attribute its list
 * query names (`cms:<uid>:field:<locale>:<attribute>`), the CMS sends it when a published
 * document's value of that attribute changed. Pure; the rows are document-middleware.js's
 * `publishedRows()` (`related`: the ids each relation or media attribute holds).
 */

/** Never changed by a write of a published document (its identity), or not readable by the site. */
const FIXED = new Set(["id", "documentId", "locale", "localizations"]);
/** Strapi's own timestamps: one per locale's row, never copied between locales. */
const TIMESTAMPS = new Set(["createdAt", "updatedAt", "publishedAt"]);

const readable = (name, attribute) =>
  attribute &&
  !FIXED.has(name) &&
  attribute.private !== true &&
  attribute.type !== "password" &&
  !attribute.unstable_virtual;

/**
 * From a schema's attributes: `{ compared, linked, media, opaque, shared }`:
 * - compared: scalar attributes, compared by value;
 * - linked: relations that hold the link (not `mappedBy`), compared by the documentIds they hold;
 * - media: compared by the ids of the files they hold;
 * - opaque: components, dynamic zones, the other side of a relation (`mappedBy`) and polymorphic
 *   relations: reading them to compare would mean deep or unbounded reads (a category's thousands
 *   of articles) or targets with no documentId, so a write that keeps the document published
 *   counts them as changed: coarser, never missing;
 * - shared: of a localized type, the attributes that are not localized: Strapi's i18n copies them
 *   to the document's other locales, so a change is sent for each locale it is published in.
 */
function readFields(attributes, { localized }) {
  const fields = { compared: [], linked: [], media: [], opaque: [], shared: [] };
  for (const [name, attribute] of Object.entries(attributes ?? {})) {
    if (!readable(name, attribute)) continue;
    const { type } = attribute;
    const morph = typeof attribute.relation === "string" && attribute.relation.startsWith("morph");
    if (type === "relation" && !attribute.mappedBy && !morph) fields.linked.push(name);
    else if (type === "media") fields.media.push(name);
    else if (type === "relation" || type === "component" || type === "dynamiczone") fields.opaque.push(name);
    else fields.compared.push(name);
    const copied = type !== "relation" && type !== "uid" && !TIMESTAMPS.has(name);
    if (localized && copied && attribute.pluginOptions?.i18n?.localized !== true) fields.shared.push(name);
  }
  return Object.freeze(Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, Object.freeze(v)])));
}

/** A value as compared: dates by their ISO form (Date#toJSON), null and undefined alike. */
const comparable = (value) => JSON.stringify(value ?? null);
const idsOf = (row, attribute) => (row?.related?.[attribute] ?? []).map(String).sort().join(" ");

/** The attributes whose value differs between two published rows of one document in one locale. */
function changedFields(fields, was, is) {
  return [
    ...fields.compared.filter((name) => comparable(was?.[name]) !== comparable(is?.[name])),
    ...[...fields.linked, ...fields.media].filter((name) => idsOf(was, name) !== idsOf(is, name)),
    ...fields.opaque,
  ];
}

const listLocaleOf = (declaration, row) => (declaration.localized && row?.locale ? row.locale : "*");

/**
 * C7: the fields a write changed, as `[{ uid, locale, attribute }]` (payload.js makes them tags,
 * each also for `*`, every locale's listing):
 * - the document's attributes whose value changed, per locale where it was published before and
 *   after the write (a row that appears or disappears changes the list itself: C3 sends its tag);
 *   a changed `shared` attribute in every locale the document is published in (`sharedLocales`);
 * - of every type whose relation this type's document sits on the other side of (`inverses`: a
 *   category's `articles`), that relation in the document's locales: a category listing filtered
 *   by its articles' fields may change with any write of an article;
 * - of every type that links to the document (`reverse`, C5: the articles of an author), the
 *   linking relation in the locales of the linking documents: an article listing filtered by its
 *   author's name changes when the author is renamed. Over the bound, C6's type tag covers them.
 */
function fieldChanges(declaration, { before = [], after = [], sharedLocales = [], reverse = [] }) {
  const { uid, fields } = declaration;
  const changes = [];
  for (const is of after) {
    const locale = listLocaleOf(declaration, is);
    const was = before.find((row) => listLocaleOf(declaration, row) === locale);
    if (!was) continue;
    for (const attribute of changedFields(fields, was, is)) {
      changes.push({ uid, locale, attribute });
      if (fields.shared.includes(attribute))
        for (const other of sharedLocales) changes.push({ uid, locale: other, attribute });
    }
  }
  const locales = [...new Set([...before, ...after].map((row) => listLocaleOf(declaration, row)))];
  for (const inverse of declaration.inverses ?? [])
    for (const locale of locales) changes.push({ uid: inverse.uid, locale, attribute: inverse.attribute });
  for (const linked of reverse)
    for (const locale of linked.overBound ? [] : (linked.locales ?? []))
      changes.push({ uid: linked.uid, locale, attribute: linked.attribute });
  return changes;
}

/** Did an attribute that Strapi's i18n copies to the document's other locales change (C7)? */
function sharedFieldChanged(declaration, before, after) {
  const { shared } = declaration.fields;
  if (!declaration.localized || shared.length === 0) return false;
  return after.some((is) => {
    const was = before.find((row) => row.locale === is.locale);
    return was && changedFields(declaration.fields, was, is).some((attribute) => shared.includes(attribute));
  });
}

module.exports = { readFields, changedFields, fieldChanges, sharedFieldChanged };
