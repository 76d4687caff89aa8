"use strict";

const { errors } = require("@strapi/utils");

const { computeFullPath } = require("./full-path");

const PAGE = "api::page.page";
/** Document actions after which a page's fullPath (and its descendants') can be out of date. */
const ACTIONS = new Set(["create", "update", "publish"]);
const FIELDS = ["id", "documentId", "locale", "slug", "fullPath", "publishedAt"];
const MAX_DEPTH = 50;

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
  strapi.documents.use(async (context, next) => {
    if (context.uid !== PAGE || !ACTIONS.has(context.action)) return next();
    // fullPath is derived: a value sent by a client is ignored (and can't trip the unique check).
    if (context.params?.data && typeof context.params.data === "object") delete context.params.data.fullPath;

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
        "fullPath" in result &&
        result.id !== undefined &&
        paths.has(result.id)
      ) {
        result.fullPath = paths.get(result.id);
      }
      return result;
    });
  });
}

/** Recomputes the fullPath of a document's entries and their descendants. Returns id → fullPath. */
async function syncDocumentFullPaths(strapi, documentId, locale) {
  const rows = await strapi.db.query(PAGE).findMany({
    where: { documentId, ...(locale ? { locale } : {}) },
    select: FIELDS,
    populate: { parent: { select: ["id", "fullPath"] } },
  });
  const written = new Map();
  for (const row of rows) {
    await assertNoCycle(strapi, row);
    await syncEntry(strapi, row, row.parent ? row.parent.fullPath : null, written, 0);
  }
  return written;
}

async function syncEntry(strapi, row, parentFullPath, written, depth) {
  if (depth > MAX_DEPTH) throw new errors.ValidationError(`Pages are nested more than ${MAX_DEPTH} levels deep.`);
  const fullPath = computeFullPath(parentFullPath, row.slug);
  if (fullPath === null) {
    throw new errors.ValidationError("A page with a parent needs a slug (it becomes the last part of its URL).", {
      errors: [
        {
          path: ["slug"],
          message: "A page with a parent needs a slug.",
          name: "ValidationError",
          value: row.slug ?? null,
        },
      ],
    });
  }
  await assertUnique(strapi, row, fullPath);
  if (row.fullPath !== fullPath) {
    await strapi.db.query(PAGE).update({ where: { id: row.id }, data: { fullPath } });
  }
  written.set(row.id, fullPath);

  const children = await strapi.db.query(PAGE).findMany({
    where: { parent: { id: row.id } },
    select: FIELDS,
  });
  for (const child of children) {
    if (!written.has(child.id)) await syncEntry(strapi, child, fullPath, written, depth + 1);
  }
}

async function assertUnique(strapi, row, fullPath) {
  const clash = await strapi.db.query(PAGE).findOne({
    where: {
      fullPath,
      locale: row.locale,
      documentId: { $ne: row.documentId },
      publishedAt: row.publishedAt ? { $notNull: true } : { $null: true },
    },
    select: ["id", "documentId", "title"],
  });
  if (clash) {
    throw new errors.ValidationError(
      `Another page in locale "${row.locale}" ("${clash.title}") already has the URL ${fullPath}: ` +
        "change the slug or the parent.",
      {
        errors: [
          {
            path: ["slug"],
            message: `The URL ${fullPath} is already used in locale "${row.locale}".`,
            name: "ValidationError",
            value: row.slug ?? null,
          },
        ],
      },
    );
  }
}

async function assertNoCycle(strapi, row) {
  const seen = new Set([row.id]);
  let parentId = row.parent ? row.parent.id : null;
  for (let depth = 0; parentId !== null && parentId !== undefined; depth += 1) {
    if (seen.has(parentId) || depth > MAX_DEPTH) {
      throw new errors.ValidationError("A page cannot be its own ancestor: choose another parent.", {
        errors: [
          { path: ["parent"], message: "A page cannot be its own ancestor.", name: "ValidationError", value: null },
        ],
      });
    }
    seen.add(parentId);
    const parent = await strapi.db
      .query(PAGE)
      .findOne({ where: { id: parentId }, select: ["id"], populate: { parent: { select: ["id"] } } });
    parentId = parent?.parent ? parent.parent.id : null;
  }
}

module.exports = { registerFullPathSync, syncDocumentFullPaths };
