"use strict";

const { documentTag, fieldTag, listTag, MAX_TAGS, neighboursTag, typeTag } = require("@cms-site/cache-tags");

const { normalise, prefixedPath, sitePath } = require("../../utils/site-paths");
const { pathOf } = require("./declarations");
const { fieldChanges } = require("./fields");

/**
 * Pure helpers of the revalidation service (unit-tested in cms/tests/plugins/site-cache/): the tags
 * (docs/cms-contract.md, "Tags"), when a write is revalidated (the trigger policy), what it sends
 * (writeInput: rules C1–C7, from the type's declaration, declarations.js) and the payload sent to
 * the front end's POST /api/cms-revalidate.
 */

// The tag spellings and limits are shared with the site's page cache (@cms-site/cache-tags).

/**
 * Does this document action change what the site shows?
 * - draftAndPublish true: publish, unpublish, delete, and writes that touch the published
 *   version (create/update with status 'published', which Strapi turns into a publish);
 *   draft-only writes (create, update, discardDraft) are invisible to the site.
 * - draftAndPublish false: every write (create, update, delete).
 * - writes flagged `updatedBy: null` (the hierarchy recalculation's own writes) are skipped:
 *   that batch revalidates its paths itself, once.
 */
function shouldRevalidate({ action, params, draftAndPublish }) {
  if (
    params &&
    params.data &&
    typeof params.data === "object" &&
    "updatedBy" in params.data &&
    params.data.updatedBy === null
  ) {
    return false;
  }
  if (draftAndPublish) {
    if (action === "publish" || action === "unpublish" || action === "delete") return true;
    if ((action === "create" || action === "update") && params?.status === "published") return true;
    return false;
  }
  return action === "create" || action === "update" || action === "delete";
}

/**
 * Does the action make the site lose the entry (so its path must be read before it runs)? Such
 * a takedown is sent with `expire: true`: the site expires what it hits instead of marking it
 * stale, so nobody is shown the old page again (not even once, stale).
 */
const removesEntry = (action) => action === "unpublish" || action === "delete";

const unique = (values) => [...new Set(values)];

/**
 * The spec's "simpler input" → the payload of POST /api/cms-revalidate.
 * `{ uid, fullPaths?, locale?, tags?, expire? }` → `{ uid, next: { fullPaths?, tags?, expire? } }`:
 * paths get the locale prefix when locale is not the default one (default-locale paths are
 * sent unprefixed: the front end adds the /<default> variant itself); a path that is already
 * locale-prefixed (redirect sources) is sent with no locale and kept as is. Tags are sent as
 * given (no type tag is added to paths any more: the sitemap records the page list's tag).
 * `expire: true` (unpublish, delete, or asked for) is sent as is; anything else is left out
 * (the site's default, stale-while-revalidate). Empty lists are left out; null when there is
 * nothing to revalidate.
 */
function buildPayload(input, { defaultLocale } = {}) {
  if (!input || typeof input.uid !== "string" || !input.uid) throw new TypeError("buildPayload: uid is required");
  const fullPaths = unique(
    (input.fullPaths ?? [])
      .filter((p) => typeof p === "string" && p)
      .map((p) => sitePath(p, input.locale, defaultLocale)),
  );
  const tags = unique((input.tags ?? []).filter((t) => typeof t === "string" && t));
  if (fullPaths.length === 0 && tags.length === 0) return null;
  const next = {};
  if (fullPaths.length) next.fullPaths = fullPaths;
  if (tags.length) next.tags = tags;
  if (input.expire === true) next.expire = true;
  return { uid: input.uid, next };
}

/** The list locale of a published row: its locale, or `*` for a type that is not localized. */
const listLocaleOf = (declaration, row) => (declaration.localized && row?.locale ? row.locale : "*");

/** The documentIds a row links to through `attribute` (rows carry them as `related[attribute]`). */
const relatedOf = (row, attribute) => (row?.related?.[attribute] ?? []).filter(Boolean);

/**
 * Did a field that places the row change: one of the declared `order` (its place in the list) or
 * of the `path` (what a list read by that field, a slug lookup, finds)?
 */
const placeChanged = (declaration, was, is) =>
  [...(declaration.order ?? []).map(({ field }) => field), ...declaration.pathFields].some(
    (field) => String(was?.[field] ?? "") !== String(is?.[field] ?? ""),
  );

/**
 * C3: the list tags a write changes, from the document's published rows before and after it
 * (`{ documentId, locale, <path and order fields>, related: { <attribute>: [documentId] } }`).
 * Per list locale: a row that appears or disappears (first publish, create, unpublish, delete) or
 * whose `order` or `path` fields changed is a membership change: the locale's and every locale's list, and
 * the lists filtered by each relation, for every related document before and after. Otherwise a
 * changed relation: the filtered lists of the documents added or removed. Returns
 * `{ membership: [locale], tags }` (membership: the list locales where D's place changed, C4).
 */
function listChanges(declaration, before = [], after = []) {
  const { uid } = declaration;
  const locales = unique([...before, ...after].map((row) => listLocaleOf(declaration, row)));
  const membership = [];
  const tags = [];
  const filtered = (locale, attribute, documentId) => [
    listTag(uid, locale, { attribute, documentId }),
    listTag(uid, "*", { attribute, documentId }),
  ];
  for (const locale of locales) {
    const was = before.find((row) => listLocaleOf(declaration, row) === locale);
    const is = after.find((row) => listLocaleOf(declaration, row) === locale);
    if (!was !== !is || placeChanged(declaration, was, is)) {
      membership.push(locale);
      tags.push(listTag(uid, locale), listTag(uid, "*"));
      for (const { attribute } of declaration.relations)
        for (const id of unique([...relatedOf(was, attribute), ...relatedOf(is, attribute)]))
          tags.push(...filtered(locale, attribute, id));
      continue;
    }
    for (const { attribute } of declaration.relations) {
      const old = new Set(relatedOf(was, attribute));
      const now = new Set(relatedOf(is, attribute));
      for (const id of [...old].filter((x) => !now.has(x))) tags.push(...filtered(locale, attribute, id));
      for (const id of [...now].filter((x) => !old.has(x))) tags.push(...filtered(locale, attribute, id));
    }
  }
  return { membership, tags: unique(tags) };
}

/**
 * What a write of one document of a declared type sends (docs/cms-contract.md, C1–C7), the
 * service's input `{ uid, fullPaths?, tags }`:
 * - C1 a single type: its tag, nothing else;
 * - C2 the document's tag and its paths before and after the write (`path` declared);
 * - C3 the list tags of listChanges();
 * - C4 `neighbours`: `{ documentId, locale }` of its neighbours in the declared order (read by the
 *   caller for the locales where its place changed) → their neighbours tags (neighboursTag);
 * - C5/C6 `reverse`: `[{ uid, documentIds, overBound }]`, the published documents of other
 *   types that link to it → their document tags, or their type's tag when over the bound (or
 *   when they would take the payload past the site's 1,000 tags); `changedLocales`: the list
 *   locales where a document of that type gained or lost its link to this one (the relation
 *   edited from this document's side) → `cms:S:list:<locale>:<attribute>=<documentId>` and `*`;
 * - C7 the field tags of fieldChanges() (fields.js): `sharedLocales`, the locales the document
 *   is published in (read by the caller when an attribute Strapi copies between locales changed);
 * - `extraPaths` / `extraTags`: what a page's hierarchy batch adds (moved pages).
 */
function writeInput(
  declaration,
  {
    documentId,
    before = [],
    after = [],
    neighbours = [],
    reverse = [],
    sharedLocales = [],
    defaultLocale,
    extraPaths = [],
    extraTags = [],
  },
) {
  const { uid } = declaration;
  if (declaration.single) return { uid, tags: [typeTag(uid)] };
  const fullPaths = [...before, ...after].map((row) => pathOf(declaration, row, defaultLocale)).filter(Boolean);
  const tags = [
    ...(documentId ? [documentTag(uid, documentId)] : []),
    ...extraTags,
    ...listChanges(declaration, before, after).tags,
    ...neighbours
      .filter((n) => n?.documentId && n.documentId !== documentId)
      .map((n) => neighboursTag(uid, n.locale, n.documentId)),
    ...fieldChanges(declaration, { before, after, sharedLocales, reverse }).flatMap((change) => [
      fieldTag(change.uid, change.locale, change.attribute),
      fieldTag(change.uid, "*", change.attribute),
    ]),
  ];
  // Smallest groups first; a group that would take the payload past the site's limit of tags goes
  // as its type's tag instead (as over the bound).
  const groups = [...reverse].sort((a, b) => a.documentIds.length - b.documentIds.length);
  const sending = new Set(tags);
  groups.forEach((linked, i) => {
    const documentTags = linked.documentIds.map((id) => documentTag(linked.uid, id));
    const later = groups.length - i - 1; // room for the later groups' type tags at least
    const fits = !linked.overBound && sending.size + documentTags.length + later <= MAX_TAGS;
    for (const tag of fits ? documentTags : [typeTag(linked.uid)]) sending.add(tag);
  });
  // The other side of a relation edited from this document's form: its filtered lists changed.
  for (const linked of groups)
    for (const locale of linked.overBound ? [] : (linked.changedLocales ?? []))
      for (const tag of [
        listTag(linked.uid, locale, { attribute: linked.attribute, documentId }),
        listTag(linked.uid, "*", { attribute: linked.attribute, documentId }),
      ])
        sending.add(tag);
  // Still past the site's limit (a move of hundreds of pages: a tag each): the types' tags, which
  // every render of a type records, instead: coarser, never missing a page.
  const sent =
    sending.size > MAX_TAGS ? unique([typeTag(uid), ...groups.map((linked) => typeTag(linked.uid))]) : [...sending];
  const paths = unique([...fullPaths, ...extraPaths]);
  if (!paths.length && !sent.length) return null;
  return { uid, ...(paths.length ? { fullPaths: paths } : {}), ...(sent.length ? { tags: sent } : {}) };
}

module.exports = {
  shouldRevalidate,
  removesEntry,
  sitePath,
  prefixedPath,
  normalise,
  buildPayload,
  listChanges,
  writeInput,
};
