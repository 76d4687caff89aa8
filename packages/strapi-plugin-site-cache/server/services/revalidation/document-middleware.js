"use strict";

const { REVERSE_BOUND, entryPath } = require("./declarations");
const { referenceHolders } = require("./reference-links");
const { sharedFieldChanged } = require("./fields");
const { documentTag } = require("@cms-site/cache-tags");

const { listChanges, prefixedPath, removesEntry, shouldRevalidate, writeInput } = require("./payload");
const { holdAnswerUntil } = require("../../middlewares/hold-answer");
const { revalidationSuppressed } = require("../../utils/suppress");

/** Rows read per query when collecting the documents that link to a document (C5). */
const REVERSE_PAGE = 500;

const isPublishLike = (action, params) =>
  action === "publish" || ((action === "create" || action === "update") && params?.status === "published");

/**
 * The document middleware of docs/cms-contract.md, "Events": after a write to a declared content type
 * (declarations.js: the `site-cache` block of its schema) that the trigger policy selects
 * (payload.js), the revalidation service is called — after the write has committed; no error of
 * the revalidation reaches the editor. A publish or save is fire-and-forget: the editor's answer
 * never waits for the front end, but for a first publish (no published row of the document in the
 * write's locale before it), which may open an address whose 404 the site has cached: answered
 * once the site has heard of it, within `service.takedownWaitMs`. An unpublish or delete is a takedown: it is sent with
 * `expire: true` (the site serves nothing rendered before it, not even once stale), then purged
 * from the CDN once the site has answered 200; the editor's request is answered only once the
 * site has answered (and the purge is done), or after `service.takedownWaitMs` (a site that had
 * not answered: recorded as a failure, sent on; sending.js, middlewares/hold-answer.js). So a
 * visitor who asks right after the editor's answer never gets the old page.
 *
 * What is sent (writeInput, rules C1–C7) comes from the document's published rows in the
 * write's locale before and after the write (its fields, related documents and media), its
 * neighbours in the declared order (before the write, and after it, where its place changed) and
 * the published documents of other declared types that link to it (before and after, bounded):
 * read here, one call per write.
 *
 * Registered before the page-hierarchy middleware, so it is the outer one. For a page publish (a
 * write of the configured hierarchy's type: page-hierarchy/settings.js) the
 * published paths of every page are read before the write (to detect moves): a publish that moves
 * pages creates the redirects and revalidates the page, the old and the new paths of everything
 * moved (and their document tags), and the redirects touched: ONE call.
 */
function registerRevalidationMiddleware(strapi, service, { hierarchy, siteTypes, isReady = () => true }) {
  const overBoundLogged = new Set();
  const reading = { strapi, service, hierarchy, overBoundLogged, siteTypes };
  strapi.documents.use(async (context, next) => {
    const { uid, action, params } = context;
    if (!isReady() || revalidationSuppressed()) return next();
    const declaration = siteTypes.declarationOf(uid);
    if (!declaration) return next();
    if (!shouldRevalidate({ action, params, draftAndPublish: declaration.draftAndPublish })) return next();

    let before = null;
    try {
      before = await readBefore(reading, context, declaration);
    } catch (error) {
      strapi.log.error(`[revalidate] could not read ${uid} before ${action}: ${error.message}`);
    }
    const result = await next();
    const takedown = removesEntry(action);
    // A first publish opens an address whose 404 the site may have cached: answered, like a
    // takedown, once the site has heard of it, so the editor's next look is the new page (decision 0010).
    const opens = !takedown && firstPublish(action, params, declaration, before);
    const publishWait = opens && service.holdsPublishes !== true ? { waitMs: service.takedownWaitMs } : {};
    await afterCommit(
      strapi,
      service,
      async () => {
        const input = await inputAfter(reading, context, declaration, before, result);
        if (!input) return;
        if (takedown) await service.revalidate({ ...input, expire: true }, { waitMs: service.takedownWaitMs });
        else await service.revalidate(input, publishWait);
      },
      // A publish too, when the service bounds it (publishWaitMs; decision 0028).
      { holdAnswer: takedown || opens || service.holdsPublishes === true },
    );
    return result;
  });
}

/**
 * Whether a write makes a document visible where it had no published row in the write's locale
 * (read before the write: `before.rows`): a publish, or a create of a type without drafts.
 */
function firstPublish(action, params, declaration, before) {
  if (!before || before.rows.length > 0) return false;
  return isPublishLike(action, params) || (!declaration.draftAndPublish && action === "create");
}

/** The locale a write's rows are read in: null for every locale (not localized, or `*`). */
async function localeOf(service, declaration, params) {
  if (!declaration.localized) return null;
  const locale = params?.locale ?? (await service.defaultLocale());
  return locale === "*" ? null : locale;
}

/**
 * The document's published rows (in `locale`, or all): its scalar attributes (path, order and
 * every field a listing may filter by: C7), and the ids each relation that holds a link and each
 * media attribute holds (`related`: documentIds, media file ids).
 */
async function publishedRows(strapi, declaration, documentId, locale) {
  if (!documentId) return [];
  const where = { documentId, publishedAt: { $notNull: true } };
  if (locale) where.locale = locale;
  const { compared, linked, media } = declaration.fields;
  const order = (declaration.order ?? []).map(({ field }) => field);
  const populate = Object.fromEntries([
    ...linked.map((attribute) => [attribute, { select: ["documentId"] }]),
    ...media.map((attribute) => [attribute, { select: ["id"] }]),
  ]);
  const rows = await strapi.db.query(declaration.uid).findMany({
    where,
    select: [...new Set(["documentId", "locale", ...declaration.pathFields, ...order, ...compared])],
    ...(Object.keys(populate).length ? { populate } : {}),
  });
  const idsOf = (value, key) => (Array.isArray(value) ? value : value ? [value] : []).map((r) => String(r[key]));
  return rows.map((row) => {
    const related = {};
    for (const attribute of linked) related[attribute] = idsOf(row[attribute], "documentId");
    for (const attribute of media) related[attribute] = idsOf(row[attribute], "id");
    return { ...row, related };
  });
}

/**
 * C4: the published documents just before and just after `row` in the declared order, in its
 * locale, as `{ documentId, locale }` (`locale` the list's: `*` for a type that is not
 * localized). A row with an empty order field has no defined place: none.
 */
async function neighboursOf(strapi, declaration, row) {
  const order = declaration.order;
  if (!order || order.some(({ field }) => row[field] === null || row[field] === undefined)) return [];
  const base = { publishedAt: { $notNull: true }, documentId: { $ne: row.documentId } };
  if (declaration.localized) base.locale = row.locale;
  // Rows after `row` in `direction`'s sense: (f1 beyond) or (f1 equal and f2 beyond) or …
  const beyond = (forward) =>
    order.map(({ field, direction }, i) => ({
      ...Object.fromEntries(order.slice(0, i).map((o) => [o.field, { $eq: row[o.field] }])),
      [field]: { [(direction === "desc") === forward ? "$lt" : "$gt"]: row[field] },
    }));
  const sortBy = (forward) =>
    order.map(({ field, direction }) => ({ [field]: forward === (direction === "asc") ? "asc" : "desc" }));
  const query = strapi.db.query(declaration.uid);
  const found = await Promise.all(
    [true, false].map((forward) =>
      query.findOne({ where: { ...base, $or: beyond(forward) }, orderBy: sortBy(forward), select: ["documentId"] }),
    ),
  );
  const locale = declaration.localized ? row.locale : "*";
  return found.filter(Boolean).map((r) => ({ documentId: r.documentId, locale }));
}

/**
 * C5/C6: for every declared type S that links to this one (attribute `a`), its published rows
 * linked to `documentId`: `[{ uid, attribute, documentIds, links, overBound }]`, `links` the
 * `<documentId> <list locale>` of each (`*`: S is not localized); more than REVERSE_BOUND
 * documents of one type: overBound (its tag is sent instead; logged once per type).
 */
async function reverseLinks({ strapi, overBoundLogged }, declaration, documentId) {
  if (!documentId) return [];
  const found = [];
  for (const { uid, attribute } of declaration.reverse) {
    const ids = new Set();
    const links = new Set();
    let overBound = false;
    for (let offset = 0; ; offset += REVERSE_PAGE) {
      const rows = await strapi.db.query(uid).findMany({
        where: { [attribute]: { documentId }, publishedAt: { $notNull: true } },
        select: ["documentId", "locale"],
        orderBy: { id: "asc" },
        limit: REVERSE_PAGE,
        offset,
      });
      for (const row of rows) {
        ids.add(row.documentId);
        links.add(`${row.documentId} ${row.locale || "*"}`);
      }
      if (ids.size > REVERSE_BOUND) {
        overBound = true;
        break;
      }
      if (rows.length < REVERSE_PAGE) break;
    }
    if (overBound && !overBoundLogged.has(uid)) {
      overBoundLogged.add(uid);
      strapi.log.warn(
        `[revalidate] more than ${REVERSE_BOUND} ${uid} documents link to one ${declaration.uid}: ` +
          `the whole type's tag cms:${uid} is revalidated instead (logged once)`,
      );
    }
    found.push({
      uid,
      attribute,
      documentIds: overBound ? [] : [...ids],
      links: overBound ? [] : [...links],
      overBound,
    });
  }
  return found;
}

/**
 * reverseLinks() before and after the write → `[{ uid, attribute, documentIds, overBound,
 * changedLocales, locales }]`: the union of the documents (over the bound if either was or the
 * union is), the list locales where a link appeared or disappeared (the write changed which
 * documents of S list under it: `cms:S:list:<locale>:<attribute>=<documentId>`), and every list
 * locale of a link (C7: S's listings filtered through the relation).
 */
function mergeLinks(before, after) {
  const merged = new Map();
  const key = (link) => `${link.uid} ${link.attribute}`;
  for (const link of [...before, ...after]) {
    if (!merged.has(key(link))) merged.set(key(link), { uid: link.uid, attribute: link.attribute });
  }
  return [...merged.entries()].map(([k, { uid, attribute }]) => {
    const was = before.find((link) => key(link) === k) ?? { documentIds: [], links: [], overBound: false };
    const is = after.find((link) => key(link) === k) ?? { documentIds: [], links: [], overBound: false };
    const ids = [...new Set([...was.documentIds, ...is.documentIds])];
    const overBound = was.overBound || is.overBound || ids.length > REVERSE_BOUND;
    const old = new Set(was.links);
    const now = new Set(is.links);
    const changed = [...old].filter((l) => !now.has(l)).concat([...now].filter((l) => !old.has(l)));
    const localeOf = (link) => link.slice(link.indexOf(" ") + 1);
    const changedLocales = overBound ? [] : [...new Set(changed.map(localeOf))];
    const locales = overBound ? [] : [...new Set([...old, ...now].map(localeOf))];
    return { uid, attribute, documentIds: overBound ? [] : ids, overBound, changedLocales, locales };
  });
}

/** What the write may change, read before it: rows, neighbours, linking documents; (page publish) every published page. */
async function readBefore(reading, { uid, action, params }, declaration) {
  if (declaration.single) return null;
  const { strapi, service, hierarchy } = reading;
  const locale = await localeOf(service, declaration, params);
  const rows = await publishedRows(strapi, declaration, params?.documentId, locale);
  const neighbours = declaration.order
    ? await Promise.all(rows.map((row) => neighboursOf(strapi, declaration, row)))
    : [];
  return {
    rows,
    neighbours: rows.map((row, i) => ({ row, ids: neighbours[i] ?? [] })),
    reverse: await reverseLinks(reading, declaration, params?.documentId),
    // A takedown removes the links to the published version it deletes: who held them is read now.
    references: removesEntry(action) ? await linkedByReference(reading, declaration, [params?.documentId]) : [],
    pages: isTree(hierarchy, uid) && isPublishLike(action, params) ? await hierarchy.publishedPages() : null,
  };
}

async function inputAfter(reading, { uid, action, params }, declaration, before, result) {
  if (declaration.single) return writeInput(declaration, {});
  const { strapi, service, hierarchy } = reading;
  const defaultLocale = await service.defaultLocale();
  const documentId = result?.documentId ?? params?.documentId;
  const locale = await localeOf(service, declaration, params);
  const removal = removesEntry(action);
  const beforeRows = before?.rows ?? [];
  const afterRows = removal ? [] : await publishedRows(strapi, declaration, documentId, locale);

  const neighbours = [];
  if (declaration.order) {
    const { membership } = listChanges(declaration, beforeRows, afterRows);
    const moved = (row) => membership.includes(declaration.localized && row.locale ? row.locale : "*");
    for (const { row, ids } of before?.neighbours ?? []) if (moved(row)) neighbours.push(...ids);
    for (const row of afterRows) if (moved(row)) neighbours.push(...(await neighboursOf(strapi, declaration, row)));
  }
  const reverse = mergeLinks(
    before?.reverse ?? [],
    removal ? [] : await reverseLinks(reading, declaration, documentId),
  );

  const sharedLocales = sharedFieldChanged(declaration, beforeRows, afterRows)
    ? await publishedLocales(strapi, declaration, documentId)
    : [];

  let extraPaths = [];
  let extraTags = [];
  let moved = [];
  if (isTree(hierarchy, uid) && before?.pages) {
    const { pathField } = hierarchy.settings();
    const batch = await hierarchy.settleBatch(before.pages, {
      ownPaths: afterRows.filter((row) => row[pathField]).map((row) => prefixedPath(row[pathField], row.locale)),
    });
    extraPaths = batch.paths;
    extraTags = batch.moves.map((move) => documentTag(uid, move.documentId));
    moved = batch.moves.map((move) => move.documentId);
  }
  // Links by reference render the target's path: the documents holding one re-render when it moves,
  // appears or goes (its own path, or a page moved with its parent), not on every edit of it.
  const referenced = [...(pathChanged(declaration, beforeRows, afterRows) ? [documentId] : []), ...moved];
  const references = [
    ...(before?.references ?? []),
    ...(referenced.length ? await linkedByReference(reading, declaration, referenced) : []),
  ];
  return writeInput(declaration, {
    documentId,
    before: beforeRows,
    after: afterRows,
    neighbours,
    reverse: [...reverse, ...references],
    sharedLocales,
    defaultLocale,
    extraPaths,
    extraTags,
  });
}

/** Is `uid` the configured page hierarchy's type (none when the plugin has no `hierarchy`)? */
const isTree = (hierarchy, uid) => hierarchy.settings()?.uid === uid;

/** Did the write change where the document is on the site, in a locale: a path that appears, goes or changes? */
function pathChanged(declaration, before, after) {
  if (!declaration.path) return false;
  const places = (rows) => new Set(rows.map((row) => `${row.locale ?? "*"} ${entryPath(declaration, row) ?? ""}`));
  const was = places(before);
  const is = places(after);
  return was.size !== is.size || [...was].some((place) => !is.has(place));
}

/** C5 for links by reference (reference-links.js): the published documents holding a link to one of `documentIds`. */
async function linkedByReference({ strapi, siteTypes }, declaration, documentIds) {
  const index = siteTypes.referenceLinks?.();
  if (!index || !index.fields.some((field) => field.target === declaration.uid)) return [];
  return referenceHolders(strapi, index, declaration.uid, documentIds, { bound: REVERSE_BOUND });
}

/** The locales a document is published in (after the write: i18n copied the shared fields to them). */
async function publishedLocales(strapi, declaration, documentId) {
  const rows = await strapi.db.query(declaration.uid).findMany({
    where: { documentId, publishedAt: { $notNull: true } },
    select: ["locale"],
  });
  return [...new Set(rows.map((row) => row.locale).filter(Boolean))];
}

/**
 * Runs fn once the surrounding transaction (if any) has committed, detached and counted by the
 * service (service.track: from the commit, so before the save is answered); never throws.
 * `holdAnswer`: the request being served (if any) is answered only once fn has settled.
 */
async function afterCommit(strapi, service, fn, { holdAnswer = false } = {}) {
  const run = () => {
    const job = service
      .track(() => new Promise((resolve) => setImmediate(resolve)).then(fn))
      .catch((error) => strapi.log.error(`[revalidate] ${error.stack ?? error.message}`));
    if (holdAnswer) holdAnswerUntil(job);
  };
  try {
    if (strapi.db.inTransaction()) {
      await strapi.db.transaction(({ onCommit }) => onCommit(run));
      return;
    }
  } catch (error) {
    strapi.log.error(`[revalidate] could not wait for the commit: ${error.message}`);
  }
  run();
}

module.exports = {
  registerRevalidationMiddleware,
  firstPublish,
  isPublishLike,
  mergeLinks,
  neighboursOf,
  pathChanged,
  reverseLinks,
};
