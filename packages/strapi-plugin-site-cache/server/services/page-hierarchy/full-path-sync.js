"use strict";

const { errors } = require("@strapi/utils");

const { computeFullPath } = require("./full-path");
const { hierarchySettings } = require("./settings");

/** Document actions after which a page's fullPath (and its descendants') can be out of date. */
const ACTIONS = new Set(["create", "update", "publish"]);
const MAX_DEPTH = 50;

/**
 * The attributes named by the configuration (settings.js), as the functions below read them:
 * rows are read with `select: fields` and carry `row[slugField]`, `row[pathField]`, `row[parentField]`.
 * Below, "fullPath", "slug" and "parent" name those configured attributes.
 */
function tree(strapi) {
  const h = hierarchySettings(strapi);
  return { ...h, fields: ["id", "documentId", "locale", h.slugField, h.pathField, "publishedAt"] };
}

/**
 * Keeps fullPath derived from the parent chain. After every create, update or publish of a
 * page, the fullPath of each of its entries (draft and published, in the locale written; all
 * locales when none is given) is recomputed, and so is every descendant's (children follow
 * their parent entry: drafts under the draft, published under the published one). Writes go
 * through the low-level `strapi.db.query`: no document middleware runs again (no recursion),
 * no `updatedAt`/`updatedBy` change, nothing is written when the value is already right.
 *
 * It runs in the same transaction as the write: a clash (another page of the same locale and
 * publication state already has the path) or a cycle fails the write as a ValidationError and
 * nothing is saved. Strapi's own `unique` check on fullPath is per locale but only sees values
 * submitted in the request, never this derived value, hence the explicit check here.
 *
 * Moves (old → new published paths), their redirects and the one revalidation per batch: see
 * ../revalidation/document-middleware.js and batch.js / moves.js here.
 */
function registerFullPathSync(strapi) {
  const { uid, pathField } = tree(strapi);
  strapi.documents.use(async (context, next) => {
    if (context.uid !== uid || !ACTIONS.has(context.action)) return next();
    // fullPath is derived: a value sent by a client is ignored (and can't trip the unique check).
    if (context.params?.data && typeof context.params.data === "object") delete context.params.data[pathField];

    return strapi.db.transaction(async () => {
      const result = await next();
      const documentId = result?.documentId ?? context.params?.documentId;
      if (!documentId) return result;
      const requested = result?.locale ?? context.params?.locale;
      const locale = typeof requested === "string" && requested !== "*" ? requested : undefined;
      const paths = await syncDocumentFullPaths(strapi, documentId, locale);
      if (
        result &&
        typeof result === "object" &&
        pathField in result &&
        result.id !== undefined &&
        paths.has(result.id)
      ) {
        result[pathField] = paths.get(result.id);
      }
      return result;
    });
  });
}

/** Recomputes the fullPath of a document's entries and their descendants. Returns id → fullPath. */
async function syncDocumentFullPaths(strapi, documentId, locale) {
  const t = tree(strapi);
  const rows = await strapi.db.query(t.uid).findMany({
    where: { documentId, ...(locale ? { locale } : {}) },
    select: t.fields,
    populate: { [t.parentField]: { select: ["id", t.pathField] } },
  });
  const written = new Map();
  for (const row of rows) {
    const parent = row[t.parentField];
    await assertNoCycle(strapi, t, row);
    await syncEntry(strapi, t, row, parent ? parent[t.pathField] : null, written, 0);
  }
  return written;
}

async function syncEntry(strapi, t, row, parentFullPath, written, depth) {
  if (depth > MAX_DEPTH) throw new errors.ValidationError(`Pages are nested more than ${MAX_DEPTH} levels deep.`);
  const fullPath = computeFullPath(parentFullPath, row[t.slugField]);
  if (fullPath === null) {
    throw new errors.ValidationError("A page with a parent needs a slug (it becomes the last part of its URL).", {
      errors: [
        {
          path: [t.slugField],
          message: "A page with a parent needs a slug.",
          name: "ValidationError",
          value: row[t.slugField] ?? null,
        },
      ],
    });
  }
  await assertUnique(strapi, t, row, fullPath);
  if (row[t.pathField] !== fullPath) {
    await strapi.db.query(t.uid).update({ where: { id: row.id }, data: { [t.pathField]: fullPath } });
  }
  written.set(row.id, fullPath);

  const children = await strapi.db.query(t.uid).findMany({
    where: { [t.parentField]: { id: row.id } },
    select: t.fields,
  });
  for (const child of children) {
    if (!written.has(child.id)) await syncEntry(strapi, t, child, fullPath, written, depth + 1);
  }
}

async function assertUnique(strapi, t, row, fullPath) {
  // The type's main field names the clashing entry to the editor (the Content Manager's own choice).
  const schema = strapi.contentTypes[t.uid];
  const mainField = schema?.attributes?.title ? "title" : null;
  const clash = await strapi.db.query(t.uid).findOne({
    where: {
      [t.pathField]: fullPath,
      locale: row.locale,
      documentId: { $ne: row.documentId },
      publishedAt: row.publishedAt ? { $notNull: true } : { $null: true },
    },
    select: ["id", "documentId", ...(mainField ? [mainField] : [])],
  });
  if (clash) {
    const named = mainField ? ` ("${clash[mainField]}")` : "";
    throw new errors.ValidationError(
      `Another page in locale "${row.locale}"${named} already has the URL ${fullPath}: ` +
        "change the slug or the parent.",
      {
        errors: [
          {
            path: [t.slugField],
            message: `The URL ${fullPath} is already used in locale "${row.locale}".`,
            name: "ValidationError",
            value: row[t.slugField] ?? null,
          },
        ],
      },
    );
  }
}

async function assertNoCycle(strapi, t, row) {
  const seen = new Set([row.id]);
  let parentId = row[t.parentField] ? row[t.parentField].id : null;
  for (let depth = 0; parentId !== null && parentId !== undefined; depth += 1) {
    if (seen.has(parentId) || depth > MAX_DEPTH) {
      throw new errors.ValidationError("A page cannot be its own ancestor: choose another parent.", {
        errors: [
          {
            path: [t.parentField],
            message: "A page cannot be its own ancestor.",
            name: "ValidationError",
            value: null,
          },
        ],
      });
    }
    seen.add(parentId);
    const parent = await strapi.db
      .query(t.uid)
      .findOne({ where: { id: parentId }, select: ["id"], populate: { [t.parentField]: { select: ["id"] } } });
    parentId = parent?.[t.parentField] ? parent[t.parentField].id : null;
  }
}

module.exports = { registerFullPathSync, syncDocumentFullPaths };
