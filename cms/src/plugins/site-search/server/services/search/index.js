"use strict";

const { MARK_START } = require("./document-text");
const { EngineUnavailable, groongaClient } = require("./groonga-client");
const { groongaStore } = require("./groonga-store");
const { postgresStore } = require("./postgres-store");
const { queryTerms } = require("./query-terms");
const { sqliteStore } = require("./sqlite-store");
const { LINKED, PAGE, sources } = require("./sources");
const { writeRetries } = require("./write-retries");

/** Documents read per query when the index is rebuilt, or an author's or category's articles are found. */
const BATCH = 200;
/** Descendants of a moved page reindexed with it (a deeper tree is mended by the next rebuild or write). */
const MAX_DESCENDANTS = 1000;

/**
 * `strapi.plugin("site-search").service("search")` (docs/search.md):
 * - ensure(): the index's tables, and a rebuild when the index is empty (a new database, or one
 *   from before the search): bootstrap;
 * - reindex(uid, documentId, locale): the document's entry in `locale` (null: every locale) made
 *   what its published version is now, or removed when there is none; of an author or a category:
 *   its articles. Called after each write (document middleware); writes run one at a time, in
 *   the order they were asked for, so the last write's state is the one kept;
 * - query({ q, locale, page }): a page of ranked results, marked.
 * The index is in the CMS's database (engine "database": its dialect picks the store) or in
 * Groonga (engine "groonga"); writes that fail because Groonga does not answer are retried
 * (write-retries.js).
 */
module.exports = ({ strapi }) => {
  const raw = (sql, bindings = []) => strapi.db.connection.raw(sql, bindings);
  const config = (key) => strapi.config.get(`plugin::site-search.${key}`);
  const store =
    config("engine") === "groonga"
      ? groongaStore(groongaClient({ url: config("groongaUrl"), timeoutMs: config("groongaTimeoutMs") }))
      : strapi.db.dialect.client === "postgres"
        ? postgresStore(raw)
        : sqliteStore(raw);
  let indexed = null;
  const types = () => (indexed ??= sources(strapi));
  let queue = Promise.resolve();
  const serially = (job) => {
    const run = queue.then(job);
    queue = run.catch((error) => strapi.log.error(`[site-search] ${error.stack ?? error.message}`));
    return run;
  };

  async function locales() {
    const all = await strapi.plugin("i18n").service("locales").find();
    return all.map((l) => l.code);
  }

  async function indexOne(uid, documentId, locale) {
    const source = types()[uid];
    const doc = await strapi
      .documents(uid)
      .findOne({ documentId, locale, status: "published", populate: source.populate });
    const path = doc ? strapi.plugin("site-cache").service("site-types").entryPath(uid, doc) : null;
    if (!doc || !path) {
      await store.remove({ uid, documentId, locale });
      return null;
    }
    await store.upsert({ uid, documentId, locale, path, ...source.entry(doc) });
    return path;
  }

  /** A page's published descendants in `locale`: their paths changed with it (the page hierarchy's path sync). */
  async function descendantsOf(path, locale) {
    if (path === "/") return [];
    const rows = await strapi.db.query(PAGE).findMany({
      where: { fullPath: { $startsWith: `${path}/` }, locale, publishedAt: { $notNull: true } },
      select: ["documentId"],
      limit: MAX_DESCENDANTS,
    });
    return rows.map((row) => row.documentId);
  }

  async function reindexNow(uid, documentId, locale) {
    if (LINKED[uid]) {
      for (const articleId of await articlesOf(uid, documentId))
        await reindexNow("api::article.article", articleId, null);
      return;
    }
    if (!types()[uid]) return;
    for (const code of locale ? [locale] : await locales()) {
      const path = await indexOne(uid, documentId, code);
      if (uid !== PAGE || !path) continue;
      for (const id of await descendantsOf(path, code)) await indexOne(uid, id, code);
    }
  }

  async function articlesOf(uid, documentId) {
    const ids = new Set();
    for (let offset = 0; ; offset += BATCH) {
      const rows = await strapi.db.query("api::article.article").findMany({
        where: { [LINKED[uid]]: { documentId } },
        select: ["documentId"],
        orderBy: { id: "asc" },
        limit: BATCH,
        offset,
      });
      rows.forEach((row) => ids.add(row.documentId));
      if (rows.length < BATCH) return [...ids];
    }
  }

  async function rebuild() {
    await store.clear();
    for (const uid of Object.keys(types())) {
      for (let offset = 0; ; offset += BATCH) {
        const rows = await strapi.db.query(uid).findMany({
          where: { publishedAt: { $notNull: true } },
          select: ["documentId", "locale"],
          orderBy: { id: "asc" },
          limit: BATCH,
          offset,
        });
        for (const row of rows) await indexOne(uid, row.documentId, row.locale);
        if (rows.length < BATCH) break;
      }
    }
  }

  async function ensureNow() {
    await store.ensure();
    if ((await store.count()) === 0) await rebuild();
  }

  const retries = writeRetries({
    retry: (uid, documentId, locale) => serially(() => reindexNow(uid, documentId, locale)),
    prepare: () => serially(ensureNow),
    rebuild: () => serially(rebuild),
    intervalMs: config("retryIntervalMs"),
    log: strapi.log,
  });
  /** A write the engine did not take: kept for a retry when the engine did not answer, else only reported. */
  const retryingIfUnavailable = (job, onUnavailable) =>
    job().catch((error) => {
      if (error instanceof EngineUnavailable) onUnavailable();
      throw error;
    });

  const snippetOf = (row) =>
    [row.description, row.body].find((text) => text?.includes(MARK_START)) ?? row.description ?? "";

  return {
    ensure: () => serially(() => retryingIfUnavailable(ensureNow, () => retries.prepareLater())),
    reindex: (uid, documentId, locale) =>
      serially(() =>
        retryingIfUnavailable(
          () => reindexNow(uid, documentId, locale),
          () => retries.add(uid, documentId, locale),
        ),
      ),
    rebuild: () => serially(rebuild),
    stop: () => retries.stop(),
    /** Settles once every write asked for so far is in the index (tests, the benchmark). */
    settled: () => serially(() => undefined),
    terms: (q) => queryTerms(q, config("maxTerms")),
    async query({ terms, locale, page }) {
      const pageSize = config("pageSize");
      if (terms.length === 0) return { results: [], pagination: { page, pageSize, pageCount: 0, total: 0 } };
      const { total, rows } = await store.search({ terms, locale, limit: pageSize, offset: (page - 1) * pageSize });
      const results = rows.map((row) => ({
        type: types()[row.uid]?.type ?? row.uid,
        documentId: row.documentId,
        locale: row.locale,
        path: row.path,
        title: row.title,
        snippet: snippetOf(row),
      }));
      return { results, pagination: { page, pageSize, pageCount: Math.ceil(total / pageSize), total } };
    },
  };
};
