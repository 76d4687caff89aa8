"use strict";

const { hierarchySettings } = require("./settings");

/** documentIds per `$notIn` filter: Strapi parses query strings with qs, whose arrays stop at 100. */
const CHUNK = 100;

/**
 * The documentIds of a page and of every page below it, in `locale` (every locale when none),
 * following both the draft and the published tree: the candidates that would make the page its
 * own ancestor if chosen as its parent. Breadth-first over the `parent` relation; each document is
 * visited once, so a cycle already in the data ends the walk instead of looping.
 */
async function selfAndDescendants(strapi, documentId, locale) {
  const { uid, parentField } = hierarchySettings(strapi);
  const query = strapi.db.query(uid);
  const inLocale = locale ? { locale } : {};
  const found = new Set([documentId]);
  let rows = await query.findMany({ where: { documentId, ...inLocale }, select: ["id"] });
  while (rows.length > 0) {
    const children = await query.findMany({
      where: { [parentField]: { id: { $in: rows.map((row) => row.id) } }, ...inLocale },
      select: ["id", "documentId"],
    });
    rows = children.filter((row) => !found.has(row.documentId));
    for (const row of rows) found.add(row.documentId);
  }
  return found;
}

/**
 * The documentIds of a page and of every page above it, in `locale` (every locale when none), in
 * both trees: the pages that would make a cycle if chosen as its children. Each document is
 * visited once, so a cycle already in the data ends the walk.
 */
async function selfAndAncestors(strapi, documentId, locale) {
  const { uid, parentField } = hierarchySettings(strapi);
  const query = strapi.db.query(uid);
  const inLocale = locale ? { locale } : {};
  const found = new Set([documentId]);
  let rows = await query.findMany({
    where: { documentId, ...inLocale },
    select: ["id"],
    populate: { [parentField]: { select: ["id", "documentId"] } },
  });
  while (rows.length > 0) {
    const parents = rows.map((row) => row[parentField]).filter((parent) => parent && !found.has(parent.documentId));
    for (const parent of parents) found.add(parent.documentId);
    rows = parents.length
      ? await query.findMany({
          where: { id: { $in: parents.map((parent) => parent.id) } },
          select: ["id"],
          populate: { [parentField]: { select: ["id", "documentId"] } },
        })
      : [];
  }
  return found;
}

/**
 * The Content Manager's relation query (`GET /content-manager/relations/...`, parsed) with these
 * documentIds left out: `filters[$and]` gains one `documentId $notIn` per CHUNK of them, next to
 * any filter already there. Pure (unit-tested in descendants.test.js).
 */
function queryWithout(query, documentIds) {
  const ids = [...documentIds];
  if (ids.length === 0) return query;
  const clauses = [];
  for (let i = 0; i < ids.length; i += CHUNK) clauses.push({ documentId: { $notIn: ids.slice(i, i + CHUNK) } });
  const existing = query.filters && typeof query.filters === "object" ? [query.filters] : [];
  return { ...query, filters: { $and: [...existing, ...clauses] } };
}

module.exports = { selfAndDescendants, selfAndAncestors, queryWithout, CHUNK };
