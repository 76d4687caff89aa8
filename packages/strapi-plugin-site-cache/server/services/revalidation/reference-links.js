"use strict";

/**
 * Links by reference (docs/links.md, decision 0041): a relation held by a component (a
 * `shared.link`'s `page` or `article`, a navbar entry's) to a declared type is a link from the
 * document that holds the component, at any depth (a card's link in a card grid in a page's
 * sections). When the target's path changes or it appears or disappears (publish, unpublish,
 * delete, a move by its parent), those documents render another href: C5 sends their document
 * tags (a single type's: every page showing the navbar, in every locale, since its document tag
 * covers them all).
 *
 * Strapi's query engine filters a component by its relation but cannot go from a component to
 * what holds it through a dynamic zone, so the climb reads the join tables Strapi's own metadata
 * names (`<collection>_cmps`: entity_id, cmp_id, component_type, field).
 */

/** How deep components nest in one another (Strapi's admin allows a few levels). */
const MAX_DEPTH = 5;
/** Ids per `IN (…)` list: far below every database's limit on bound parameters. */
const CHUNK = 500;

/**
 * The pure reading, from the schemas: `fields`, each component's relation attributes that target a
 * declared type (`[{ component, attribute, target }]`), and `embedders`, for each component what
 * holds it (`component uid → [{ owner, attribute, zone, isType }]`: a component or a declared type,
 * through a component attribute or a dynamic zone).
 */
function readReferenceLinks(components, contentTypes, declared) {
  const fields = [];
  for (const [uid, schema] of Object.entries(components ?? {}))
    for (const [attribute, a] of Object.entries(schema?.attributes ?? {}))
      if (a?.type === "relation" && !a.mappedBy && declared.has(a.target))
        fields.push(Object.freeze({ component: uid, attribute, target: a.target }));
  const embedders = new Map();
  const add = (component, entry) => embedders.set(component, [...(embedders.get(component) ?? []), entry]);
  const owners = [
    ...Object.entries(components ?? {}).map(([uid, schema]) => [uid, schema, false]),
    ...[...declared].map((uid) => [uid, contentTypes?.[uid], true]),
  ];
  for (const [owner, schema, isType] of owners)
    for (const [attribute, a] of Object.entries(schema?.attributes ?? {})) {
      if (a?.type === "component") add(a.component, Object.freeze({ owner, attribute, zone: false, isType }));
      if (a?.type === "dynamiczone")
        for (const component of a.components ?? [])
          add(component, Object.freeze({ owner, attribute, zone: true, isType }));
    }
  return { fields: Object.freeze(fields), embedders };
}

const chunks = (values) => {
  const out = [];
  for (let i = 0; i < values.length; i += CHUNK) out.push(values.slice(i, i + CHUNK));
  return out;
};

/** A knex query in the write's transaction when there is one (SQLite has one connection: outside it, it would wait for it). */
const inWrite = (strapi, query) =>
  strapi.db.inTransaction() ? strapi.db.transaction(({ trx }) => query.transacting(trx)) : query;

/** The ids of the rows of `owner` that hold the components `ids` of type `component` through `embedder`. */
async function holdingIds(strapi, component, ids, { owner, attribute, zone }) {
  const join = strapi.db.metadata.get(owner)?.attributes?.[attribute]?.joinTable;
  if (!join) return [];
  const idColumn = zone ? join.morphColumn.idColumn.name : join.inverseJoinColumn.name;
  const typeColumn = zone ? join.morphColumn.typeColumn.name : null;
  const found = new Set();
  for (const part of chunks(ids)) {
    let query = strapi.db
      .getConnection(join.name)
      .distinct(join.joinColumn.name)
      .whereIn(idColumn, part)
      .where(join.on);
    if (typeColumn) query = query.where(typeColumn, component);
    for (const row of await inWrite(strapi, query)) found.add(row[join.joinColumn.name]);
  }
  return [...found];
}

/**
 * The published documents that link by reference to any of `documentIds` of `targetUid`:
 * `[{ uid, attribute: null, documentIds, overBound, changedLocales: [], locales: [] }]`, one per
 * holding type (the shape of C5's groups: writeInput sends their document tags, or the type's tag
 * past `bound`). No filtered list or field tag goes with them: no listing filters through a link.
 */
async function referenceHolders(strapi, index, targetUid, documentIds, { bound }) {
  const targets = [...new Set(documentIds.filter(Boolean))];
  if (targets.length === 0) return [];
  const holders = new Map();
  const climb = async (component, ids, depth) => {
    if (ids.length === 0 || depth > MAX_DEPTH) return;
    for (const embedder of index.embedders.get(component) ?? []) {
      const owners = await holdingIds(strapi, component, ids, embedder);
      if (!embedder.isType) await climb(embedder.owner, owners, depth + 1);
      else holders.set(embedder.owner, [...(holders.get(embedder.owner) ?? []), ...owners]);
    }
  };
  for (const { component, attribute, target } of index.fields) {
    if (target !== targetUid) continue;
    const rows = await strapi.db.query(component).findMany({
      where: { [attribute]: { documentId: { $in: targets } } },
      select: ["id"],
    });
    await climb(
      component,
      rows.map((row) => row.id),
      1,
    );
  }
  const found = [];
  for (const [uid, ids] of holders) {
    const documents = new Set();
    for (const part of chunks([...new Set(ids)])) {
      const rows = await strapi.db.query(uid).findMany({
        where: { id: { $in: part }, publishedAt: { $notNull: true } },
        select: ["documentId"],
      });
      for (const row of rows) documents.add(row.documentId);
    }
    if (documents.size === 0) continue;
    const overBound = documents.size > bound;
    found.push({
      uid,
      attribute: null,
      documentIds: overBound ? [] : [...documents],
      overBound,
      changedLocales: [],
      locales: [],
    });
  }
  return found;
}

module.exports = { readReferenceLinks, referenceHolders, MAX_DEPTH };
