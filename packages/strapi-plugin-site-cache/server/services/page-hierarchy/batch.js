"use strict";

const { prefixedPath } = require("../../utils/site-paths");
const { withoutRevalidation } = require("../../utils/suppress");
const { syncDocumentFullPaths } = require("./full-path-sync");
const { diffPaths, planRedirects, movedSitePaths } = require("./moves");
const { hierarchySettings } = require("./settings");

/** Every published page: [{ documentId, locale, fullPath }] (fullPath: the configured pathField's value). */
async function publishedPages(strapi) {
  const { uid, pathField } = hierarchySettings(strapi);
  const rows = await strapi.db
    .query(uid)
    .findMany({ where: { publishedAt: { $notNull: true } }, select: ["documentId", "locale", pathField] });
  return rows.map((row) => ({ documentId: row.documentId, locale: row.locale, fullPath: row[pathField] }));
}

async function localeInfo(strapi) {
  const service = strapi.plugin("i18n").service("locales");
  const defaultLocale = (await service.getDefaultLocale()) || "en";
  const locales = (await service.find()).map((l) => l.code);
  if (!locales.includes(defaultLocale)) locales.push(defaultLocale);
  return { defaultLocale, locales };
}

/** The redirects (one per document; the published row when there is one); none without a redirect type. */
async function currentRedirects(strapi) {
  const { redirectType } = hierarchySettings(strapi);
  if (!redirectType) return [];
  const rows = await strapi.db
    .query(redirectType)
    .findMany({ select: ["documentId", "source", "destination", "permanent", "publishedAt"] });
  const byDocument = new Map();
  for (const row of rows) {
    const seen = byDocument.get(row.documentId);
    if (!seen || (!seen.publishedAt && row.publishedAt)) byDocument.set(row.documentId, row);
  }
  return [...byDocument.values()];
}

/**
 * After a batch of page writes has committed: finds the moved published pages (before vs now),
 * creates / updates / removes redirects (published, permanent; writes skipped by the
 * revalidation middleware) and returns what to revalidate, in one list.
 *
 * - before: publishedPages() taken before the batch;
 * - ownPaths: extra locale-prefixed page paths the batch published (their shadowing redirects
 *   go too).
 */
async function settleBatch(strapi, before, { ownPaths = [] } = {}) {
  const after = await publishedPages(strapi);
  const { defaultLocale, locales } = await localeInfo(strapi);
  const moves = diffPaths(before, after);
  const livePaths = after.filter((row) => row.fullPath).map((row) => prefixedPath(row.fullPath, row.locale));
  const touched = [...ownPaths, ...moves.map((m) => prefixedPath(m.newPath, m.locale))];
  const plan = { create: [], update: [], remove: [] };
  const { redirectType } = hierarchySettings(strapi);
  if (redirectType && (moves.length || touched.length)) {
    const redirects = await currentRedirects(strapi);
    Object.assign(plan, planRedirects({ moves, redirects, livePaths, touched, locales, defaultLocale }));
    const documents = strapi.documents(redirectType);
    await withoutRevalidation(async () => {
      for (const r of plan.remove) await documents.delete({ documentId: r.documentId });
      for (const r of plan.update)
        await documents.update({ documentId: r.documentId, data: { destination: r.destination }, status: "published" });
      for (const r of plan.create) await documents.create({ data: r, status: "published" });
    });
    for (const r of plan.create) strapi.log.info(`[page-hierarchy] redirect ${r.source} → ${r.destination} created`);
    for (const r of plan.update) strapi.log.info(`[page-hierarchy] redirect ${r.source} now → ${r.destination}`);
    for (const r of plan.remove)
      strapi.log.info(`[page-hierarchy] redirect ${r.source} removed (its source is a live page again)`);
  }
  const paths = new Set(movedSitePaths(moves, defaultLocale));
  // Redirect sources are locale-prefixed: the front end keeps them as they are.
  for (const r of [...plan.create, ...plan.update, ...plan.remove]) paths.add(r.source);
  return { moves, redirects: plan, paths: [...paths], defaultLocale };
}

/**
 * The hierarchy action: recomputes the fullPath of every page (all locales, draft and
 * published; writes through strapi.db.query, no middleware), then settles the batch. What to
 * revalidate (old and new paths, in one call) is in the result's `paths`: the caller sends it.
 */
async function recalculateAll(strapi) {
  const { uid, parentField } = hierarchySettings(strapi);
  const before = await publishedPages(strapi);
  await strapi.db.transaction(async () => {
    const roots = await strapi.db
      .query(uid)
      .findMany({ where: { [parentField]: { id: { $null: true } } }, select: ["documentId"] });
    for (const documentId of new Set(roots.map((r) => r.documentId))) await syncDocumentFullPaths(strapi, documentId);
  });
  return settleBatch(strapi, before);
}

module.exports = { publishedPages, currentRedirects, settleBatch, recalculateAll, localeInfo };
