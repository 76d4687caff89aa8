"use strict";

const {
  documentTagFor,
  inputFor,
  prefixedPath,
  removesEntry,
  shouldRevalidate,
  sitePath,
  tagFor,
  targetFor,
} = require("./payload");
const { holdAnswerUntil } = require("../../middlewares/hold-answer");
const { revalidationSuppressed } = require("../../utils/suppress");

const PAGE = "api::page.page";

const isPublishLike = (action, params) =>
  action === "publish" || ((action === "create" || action === "update") && params?.status === "published");

/**
 * The document middleware of docs/cms-contract.md, "Events": after a write to an allowlisted content type
 * that the trigger policy selects (payload.js), the revalidation service is called — after the
 * write has committed; no error of the revalidation reaches the editor. A publish or save is
 * fire-and-forget: the editor's answer never waits for the front end. An unpublish or delete is
 * a takedown: it is sent with `expire: true` (the site serves nothing rendered before it, not
 * even once stale), then purged from the CDN once the site has answered 200; the editor's
 * request is answered only once the site has answered (and the purge is done), or after
 * `service.takedownWaitMs` (a site that had not answered: recorded as a failure, sent on;
 * service.js, middlewares/hold-answer.js). So a visitor who asks right after the editor's answer never gets
 * the old page.
 *
 * Registered before the page-hierarchy middleware, so it is the outer one. For a page, what the
 * write loses (the fullPaths of an unpublished / deleted entry) and the published paths of
 * every page (to detect moves) are read before the write. A publish that moves pages creates
 * the redirects and revalidates the page, the old and the new paths of everything moved, and
 * the redirects touched: ONE call.
 */
function registerRevalidationMiddleware(strapi, service, { hierarchy, isReady = () => true }) {
  strapi.documents.use(async (context, next) => {
    const { uid, action, params } = context;
    const target = targetFor(uid);
    if (!target || !isReady() || revalidationSuppressed()) return next();
    const draftAndPublish = Boolean(strapi.contentType(uid)?.options?.draftAndPublish);
    if (!shouldRevalidate({ action, params, draftAndPublish })) return next();

    let before = null;
    try {
      before = await readBefore(strapi, service, context, target, hierarchy);
    } catch (error) {
      strapi.log.error(`[revalidate] could not read ${uid} before ${action}: ${error.message}`);
    }
    const result = await next();
    const takedown = removesEntry(action);
    await afterCommit(
      strapi,
      service,
      async () => {
        const input = await inputAfter(strapi, service, context, target, before, result, hierarchy);
        if (!input) return;
        if (takedown) await service.revalidate({ ...input, expire: true }, { waitMs: service.takedownWaitMs });
        else await service.revalidate(input);
      },
      // A publish too, when the service bounds it (publishWaitMs; decision 0028).
      { holdAnswer: takedown || service.holdsPublishes === true },
    );
    return result;
  });
}

/** The write's paths that will be gone afterwards, or (page publish) every published page. */
async function readBefore(strapi, service, { uid, action, params }, target, hierarchy) {
  if (target.mode === "tag") return null;
  if (uid === PAGE && isPublishLike(action, params)) return { pages: await hierarchy.publishedPages() };
  if (!params?.documentId) return null;
  const where = { documentId: params.documentId, publishedAt: { $notNull: true } };
  if (target.localized) {
    const locale = params.locale ?? (await service.defaultLocale());
    if (locale !== "*") where.locale = locale;
  }
  const rows = await strapi.db.query(uid).findMany({ where, select: ["documentId", "locale", target.field] });
  return { rows };
}

async function inputAfter(strapi, service, { uid, action, params }, target, before, result, hierarchy) {
  if (target.mode === "tag") return { uid, tags: [tagFor(uid)] };
  const defaultLocale = await service.defaultLocale();
  const documentId = result?.documentId ?? params?.documentId;

  if (uid === PAGE && isPublishLike(action, params) && before?.pages) {
    const own = documentId
      ? await strapi.db.query(PAGE).findMany({
          where: {
            documentId,
            publishedAt: { $notNull: true },
            ...(params?.locale && params.locale !== "*" ? { locale: params.locale } : {}),
          },
          select: ["documentId", "locale", "fullPath"],
        })
      : [];
    const batch = await hierarchy.settleBatch(before.pages, {
      ownPaths: own.map((row) => prefixedPath(row.fullPath, row.locale)),
    });
    const fullPaths = [
      ...new Set([...own.map((row) => sitePath(row.fullPath, row.locale, defaultLocale)), ...batch.paths]),
    ];
    return fullPaths.length
      ? { uid, fullPaths, ...(documentId ? { tags: [documentTagFor(uid, documentId)] } : {}) }
      : null;
  }

  const rows = [...(before?.rows ?? [])];
  if (!removesEntry(action) && documentId) {
    // Redirect publish / non-D&P writes: the entry's current value too (a changed source or
    // path: the old one came from `before`).
    rows.push(
      ...(await strapi.db.query(uid).findMany({
        where: { documentId, publishedAt: { $notNull: true } },
        select: ["documentId", "locale", target.field],
      })),
    );
  }
  return inputFor(uid, rows, { defaultLocale });
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

module.exports = { registerRevalidationMiddleware, isPublishLike };
