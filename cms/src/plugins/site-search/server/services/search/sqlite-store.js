"use strict";

const { entryDeletions } = require("./entry-deletions");
const { fts5Match } = require("./query-terms");

/**
 * The index in SQLite (the CMS's default database): the entries in a plain table, one row per
 * document and locale, and an FTS5 table over their title, description and body that triggers keep
 * in step (FTS5's "external content" pattern). Ranked with bm25, title before description before
 * body; matches marked with \u0002…\u0003 by highlight() and snippet(). `raw(sql, bindings)`:
 * knex's raw on the CMS's connection; every value is a binding.
 */
const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS site_search_entries (
     id INTEGER PRIMARY KEY, uid TEXT NOT NULL, document_id TEXT NOT NULL, locale TEXT NOT NULL,
     path TEXT NOT NULL, title TEXT NOT NULL, description TEXT NOT NULL, body TEXT NOT NULL,
     UNIQUE (uid, document_id, locale))`,
  `CREATE VIRTUAL TABLE IF NOT EXISTS site_search_fts USING fts5(
     title, description, body, content = 'site_search_entries', content_rowid = 'id',
     tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3')`,
  `CREATE TRIGGER IF NOT EXISTS site_search_entries_ai AFTER INSERT ON site_search_entries BEGIN
     INSERT INTO site_search_fts (rowid, title, description, body) VALUES (new.id, new.title, new.description, new.body);
   END`,
  `CREATE TRIGGER IF NOT EXISTS site_search_entries_ad AFTER DELETE ON site_search_entries BEGIN
     INSERT INTO site_search_fts (site_search_fts, rowid, title, description, body)
       VALUES ('delete', old.id, old.title, old.description, old.body);
   END`,
  `CREATE TRIGGER IF NOT EXISTS site_search_entries_au AFTER UPDATE ON site_search_entries BEGIN
     INSERT INTO site_search_fts (site_search_fts, rowid, title, description, body)
       VALUES ('delete', old.id, old.title, old.description, old.body);
     INSERT INTO site_search_fts (rowid, title, description, body) VALUES (new.id, new.title, new.description, new.body);
   END`,
];

const rowsOf = (result) => (Array.isArray(result) ? result : (result?.rows ?? []));

function sqliteStore(raw) {
  return {
    async ensure() {
      for (const statement of SCHEMA) await raw(statement);
    },
    async count() {
      return Number(rowsOf(await raw("SELECT count(*) AS n FROM site_search_entries"))[0]?.n ?? 0);
    },
    async upsert({ uid, documentId, locale, path, title, description, body }) {
      await raw(
        `INSERT INTO site_search_entries (uid, document_id, locale, path, title, description, body)
         VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (uid, document_id, locale) DO UPDATE SET
           path = excluded.path, title = excluded.title, description = excluded.description, body = excluded.body`,
        [uid, documentId, locale, path, title, description, body],
      );
    },
    ...entryDeletions(raw),
    async search({ terms, locale, limit, offset }) {
      const match = fts5Match(terms);
      const total = rowsOf(
        await raw(
          `SELECT count(*) AS n FROM site_search_fts JOIN site_search_entries e ON e.id = site_search_fts.rowid
           WHERE site_search_fts MATCH ? AND e.locale = ?`,
          [match, locale],
        ),
      )[0]?.n;
      const rows = rowsOf(
        await raw(
          `SELECT e.uid, e.document_id AS documentId, e.locale, e.path,
             highlight(site_search_fts, 0, char(2), char(3)) AS title,
             snippet(site_search_fts, 1, char(2), char(3), '…', 32) AS description,
             snippet(site_search_fts, 2, char(2), char(3), '…', 24) AS body
           FROM site_search_fts JOIN site_search_entries e ON e.id = site_search_fts.rowid
           WHERE site_search_fts MATCH ? AND e.locale = ?
           ORDER BY bm25(site_search_fts, 10.0, 4.0, 1.0), e.id
           LIMIT ? OFFSET ?`,
          [match, locale, limit, offset],
        ),
      );
      return { total: Number(total ?? 0), rows };
    },
  };
}

module.exports = { sqliteStore };
