"use strict";

const { sitePath } = require("../../utils/site-paths");
const { readFields } = require("./fields");

/**
 * The site's content types, read from their schemas (docs/cms-contract.md, "Revalidation: one
 * declaration per type"). A content type is revalidated automatically, and readable with the
 * front end's token, iff its schema.json has the block
 *
 *   "pluginOptions": { "site-cache": { "path"?: "/blog/{slug}", "order"?: ["publishDate:desc", "slug:asc"], "preview"?: false, "schedule"?: true } }
 *
 * - `path`: the site path of an entry, `{attribute}` replaced by the entry's value (localized
 *   types get the locale prefix of a non-default locale: sitePath()). It is also where the
 *   admin's Preview shows an entry (src/preview/): every type with a path has a Preview button;
 * - `order`: the order the site lists the type in (neighbours: previous / next links);
 * - `preview: false`: no Preview button, for a type whose path is no page of its own (redirects).
 * - `schedule: true`: editors may schedule its publishing (docs/scheduled-publishing.md): the type
 *   has drafts and the datetime attributes `publishAt` and `unpublishAt` (SCHEDULE_FIELDS), which
 *   the plugin's scheduler acts on (services/schedule/).
 *
 * Pure: `readDeclarations(contentTypes)` takes Strapi's `strapi.contentTypes` (uid → schema) and
 * throws on a malformed block, so a typo stops the CMS at its start instead of silently not
 * revalidating.
 */

const KEY = "site-cache";
const KNOWN_KEYS = new Set(["path", "order", "preview", "schedule"]);
/** The attributes a scheduled type must have, both `datetime`. */
const SCHEDULE_FIELDS = Object.freeze(["publishAt", "unpublishAt"]);
const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** The documents of one type that C5 expands before falling back to the type's tag (C6). */
const REVERSE_BOUND = 1000;

function fail(uid, message) {
  throw new Error(`site-cache: the "site-cache" block of ${uid}'s schema: ${message}`);
}

function parseOrder(uid, order, attributes) {
  if (!Array.isArray(order) || order.length === 0) fail(uid, "order must be a non-empty array of 'attribute:asc|desc'");
  return Object.freeze(
    order.map((entry) => {
      const match = typeof entry === "string" ? /^([A-Za-z_][A-Za-z0-9_]*):(asc|desc)$/.exec(entry) : null;
      if (!match) fail(uid, `order entry ${JSON.stringify(entry)} is not 'attribute:asc' or 'attribute:desc'`);
      if (!attributes[match[1]]) fail(uid, `order names ${match[1]}, which is not an attribute`);
      return Object.freeze({ field: match[1], direction: match[2] });
    }),
  );
}

function parsePath(uid, path, attributes) {
  if (typeof path !== "string" || !path) fail(uid, "path must be a non-empty string such as '/blog/{slug}'");
  const fields = [...path.matchAll(PLACEHOLDER)].map((m) => m[1]);
  if (fields.length === 0) fail(uid, `path ${JSON.stringify(path)} names no attribute ('{slug}')`);
  for (const field of fields) if (!attributes[field]) fail(uid, `path names ${field}, which is not an attribute`);
  return { template: path, fields: Object.freeze([...new Set(fields)]) };
}

/**
 * uid → schema (strapi.contentTypes) → Map uid → declaration:
 * `{ uid, single, localized, draftAndPublish, path?, pathFields, order?, preview, fields, relations,
 * inverses, reverse }`. `fields`: what a listing may filter or sort by and how a change of each is
 * told (fields.js, C7). `relations`: the type's relation attributes that hold the link (not
 * `mappedBy`: the other side's) to a declared type, `[{ attribute, target }]`; `inverses`: the
 * other sides of those, `[{ uid, attribute }]` (a category's `articles`: C7); `reverse`: the
 * declared types' relations that target this type, `[{ uid, attribute }]` (C5). Strapi's own
 * `localizations` (added to every localized type, linking a document's locales: its document tag
 * covers them) is not one.
 */
const isLink = (name, attribute) =>
  attribute?.type === "relation" && !attribute.mappedBy && name !== "localizations" && !attribute.unstable_virtual;

function parseSchedule(uid, schedule, schema) {
  if (schedule === undefined || schedule === false) return false;
  if (schedule !== true) fail(uid, "schedule must be true or false");
  if (schema.kind === "singleType") fail(uid, "a single type cannot be scheduled (it has one entry, kept published)");
  if (!schema.options?.draftAndPublish)
    fail(uid, "schedule needs draftAndPublish (a scheduled publish publishes the draft)");
  for (const field of SCHEDULE_FIELDS) {
    if (schema.attributes?.[field]?.type !== "datetime") fail(uid, `schedule needs a datetime attribute ${field}`);
  }
  return true;
}

function readDeclarations(contentTypes) {
  const declared = new Map();
  for (const [uid, schema] of Object.entries(contentTypes ?? {})) {
    const block = schema?.pluginOptions?.[KEY];
    if (block === undefined) continue;
    if (!block || typeof block !== "object" || Array.isArray(block)) fail(uid, "must be an object");
    for (const key of Object.keys(block)) if (!KNOWN_KEYS.has(key)) fail(uid, `unknown key ${JSON.stringify(key)}`);
    const attributes = schema.attributes ?? {};
    const single = schema.kind === "singleType";
    if (single && (block.path !== undefined || block.order !== undefined || block.preview !== undefined))
      fail(uid, "a single type has no path, order or preview (its tag is revalidated on every write)");
    const path = block.path === undefined ? null : parsePath(uid, block.path, attributes);
    if (block.preview !== undefined && typeof block.preview !== "boolean") fail(uid, "preview must be true or false");
    if (block.preview === true && !path) fail(uid, "preview needs a path (where the site shows an entry)");
    declared.set(uid, {
      uid,
      single,
      localized: Boolean(schema.pluginOptions?.i18n?.localized),
      draftAndPublish: Boolean(schema.options?.draftAndPublish),
      path: path?.template ?? null,
      pathFields: path?.fields ?? Object.freeze([]),
      order: block.order === undefined ? null : parseOrder(uid, block.order, attributes),
      preview: path !== null && block.preview !== false,
      schedule: parseSchedule(uid, block.schedule, schema),
      fields: readFields(attributes, { localized: Boolean(schema.pluginOptions?.i18n?.localized) }),
      attributes,
    });
  }
  for (const declaration of declared.values()) {
    declaration.relations = Object.freeze(
      Object.entries(declaration.attributes)
        .filter(([name, a]) => isLink(name, a) && declared.has(a.target))
        .map(([attribute, a]) => Object.freeze({ attribute, target: a.target })),
    );
    declaration.inverses = Object.freeze(
      Object.entries(declaration.attributes)
        .filter(([name, a]) => isLink(name, a) && declared.has(a.target) && a.inversedBy)
        .map(([, a]) => Object.freeze({ uid: a.target, attribute: a.inversedBy })),
    );
    delete declaration.attributes;
  }
  for (const declaration of declared.values()) {
    declaration.reverse = Object.freeze(
      [...declared.values()].flatMap((other) =>
        other.relations
          .filter((relation) => relation.target === declaration.uid)
          .map((relation) => Object.freeze({ uid: other.uid, attribute: relation.attribute })),
      ),
    );
    Object.freeze(declaration);
  }
  return declared;
}

/**
 * The front end's read-only token's permissions: `find` on every declared type, `findOne` on
 * every declared collection type, and the locales list. Sorted.
 */
function tokenPermissions(declarations) {
  const actions = ["plugin::i18n.locales.listLocales"];
  for (const { uid, single } of declarations.values()) {
    actions.push(`${uid}.find`);
    if (!single) actions.push(`${uid}.findOne`);
  }
  return actions.sort();
}

/**
 * The path of one entry without its locale prefix (a row with the path's fields), or null: the
 * template filled in, as the admin's Preview asks the site for it (src/preview/; the locale goes
 * in its own parameter).
 */
function entryPath(declaration, row) {
  if (!declaration.path || !row) return null;
  let missing = false;
  const path = declaration.path.replace(PLACEHOLDER, (_, field) => {
    const value = row[field];
    if (typeof value !== "string" || !value) missing = true;
    return missing ? "" : value;
  });
  return missing ? null : path;
}

/** The site path of one entry (a row with the path's fields and its locale), or null. */
function pathOf(declaration, row, defaultLocale) {
  const path = entryPath(declaration, row);
  if (path === null) return null;
  return declaration.localized ? sitePath(path, row.locale, defaultLocale) : path;
}

module.exports = { readDeclarations, tokenPermissions, entryPath, pathOf, REVERSE_BOUND, KEY, SCHEDULE_FIELDS };
