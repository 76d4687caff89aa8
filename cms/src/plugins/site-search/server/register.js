"use strict";

const { LINKED, sources } = require("./services/search/sources");

/** The document actions that can change what a published document shows. */
const WRITES = new Set(["create", "update", "delete", "publish", "unpublish"]);

/**
 * The document middleware that keeps the index in step (docs/search.md): after a write to a page,
 * an article, or an author or category (shown in their articles' entries), once the write has
 * committed, the document's entry in the write's locale (every locale: `*` or none) is read again
 * from its published version: upserted, or removed after an unpublish or delete. A failure is
 * logged, never the editor's: the write stands, the next write of the document mends its entry.
 * Outside a transaction the editor's answer waits for the entry (a few milliseconds, so a search
 * made right after the answer finds the publish); inside one (a page's path sync) it is written
 * once the transaction commits.
 */
module.exports = ({ strapi }) => {
  const watched = new Set([...Object.keys(sources(strapi)), ...Object.keys(LINKED)]);
  strapi.documents.use(async (context, next) => {
    const { uid, action, params } = context;
    if (!watched.has(uid) || !WRITES.has(action)) return next();
    const result = await next();
    const documentId = result?.documentId ?? params?.documentId;
    if (!documentId) return result;
    const requested = result?.locale ?? params?.locale;
    const locale = typeof requested === "string" && requested !== "*" ? requested : null;
    const reindex = () =>
      strapi
        .plugin("site-search")
        .service("search")
        .reindex(uid, documentId, LINKED[uid] ? null : locale)
        .catch((error) => strapi.log.error(`[site-search] could not index ${uid} ${documentId}: ${error.message}`));
    if (strapi.db.inTransaction()) {
      await strapi.db.transaction(({ onCommit }) => onCommit(() => void reindex()));
    } else if (LINKED[uid]) {
      // An author's or a category's articles may be many: indexed in the background.
      void reindex();
    } else await reindex();
    return result;
  });
};
