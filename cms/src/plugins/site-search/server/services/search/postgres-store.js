"use strict";

const { entryDeletions } = require("./entry-deletions");
const { tsQuery } = require("./query-terms");

/**
 * The index in PostgreSQL (the CMS on a cluster, decision 0029): one row per document and locale
 * with a weighted tsvector (title A, description B, body C) under a GIN index, built with the text
 * search configuration of the entry's language (CONFIGS; others: `simple`), so German words are
 * stemmed as German. Ranked with ts_rank_cd; matches marked with \u0002…\u0003 by ts_headline, on
 * the page of results only. `raw(sql, bindings)`: knex's raw; every value is a binding.
 */
const CONFIGS = {
  da: "danish",
  de: "german",
  en: "english",
  es: "spanish",
  fi: "finnish",
  fr: "french",
  hu: "hungarian",
  it: "italian",
  nb: "norwegian",
  nl: "dutch",
  no: "norwegian",
  pt: "portuguese",
  ro: "romanian",
  ru: "russian",
  sv: "swedish",
  tr: "turkish",
};
const configOf = (locale) => CONFIGS[String(locale).toLowerCase().split("-")[0]] ?? "simple";

const MARKS = 'StartSel="\u0002", StopSel="\u0003"';
const TITLE_OPTIONS = `${MARKS}, HighlightAll=true`;
const SNIPPET_OPTIONS = `${MARKS}, MaxWords=30, MinWords=12, MaxFragments=2, FragmentDelimiter=" … "`;

const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS site_search_entries (
     uid text NOT NULL, document_id text NOT NULL, locale text NOT NULL, path text NOT NULL,
     title text NOT NULL, description text NOT NULL, body text NOT NULL, config regconfig NOT NULL,
     document tsvector NOT NULL, PRIMARY KEY (uid, document_id, locale))`,
  "CREATE INDEX IF NOT EXISTS site_search_entries_document ON site_search_entries USING gin (document)",
];

const rowsOf = (result) => result?.rows ?? [];

function postgresStore(raw) {
  return {
    async ensure() {
      // Two CMS instances starting together on one database: one creates, the other waits for its lock.
      await raw("SELECT pg_advisory_lock(hashtext('site_search_schema'))");
      try {
        for (const statement of SCHEMA) await raw(statement);
      } finally {
        await raw("SELECT pg_advisory_unlock(hashtext('site_search_schema'))");
      }
    },
    async count() {
      return Number(rowsOf(await raw("SELECT count(*) AS n FROM site_search_entries"))[0]?.n ?? 0);
    },
    async upsert({ uid, documentId, locale, path, title, description, body }) {
      const config = configOf(locale);
      await raw(
        `INSERT INTO site_search_entries (uid, document_id, locale, path, title, description, body, config, document)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?::regconfig,
           setweight(to_tsvector(?::regconfig, ?), 'A') || setweight(to_tsvector(?::regconfig, ?), 'B')
             || setweight(to_tsvector(?::regconfig, ?), 'C'))
         ON CONFLICT (uid, document_id, locale) DO UPDATE SET
           path = excluded.path, title = excluded.title, description = excluded.description, body = excluded.body,
           config = excluded.config, document = excluded.document`,
        [
          uid,
          documentId,
          locale,
          path,
          title,
          description,
          body,
          config,
          config,
          title,
          config,
          description,
          config,
          body,
        ],
      );
    },
    ...entryDeletions(raw),
    async search({ terms, locale, limit, offset }) {
      const config = configOf(locale);
      const query = tsQuery(terms);
      const total = rowsOf(
        await raw(
          "SELECT count(*) AS n FROM site_search_entries WHERE locale = ? AND document @@ to_tsquery(?::regconfig, ?)",
          [locale, config, query],
        ),
      )[0]?.n;
      const rows = rowsOf(
        await raw(
          `WITH q AS (SELECT to_tsquery(?::regconfig, ?) AS query),
           hits AS (
             SELECT e.*, ts_rank_cd(e.document, q.query) AS rank FROM site_search_entries e, q
             WHERE e.locale = ? AND e.document @@ q.query
             ORDER BY rank DESC, e.uid, e.document_id LIMIT ? OFFSET ?)
           SELECT hits.uid, hits.document_id AS "documentId", hits.locale, hits.path,
             ts_headline(hits.config, hits.title, q.query, ?) AS title,
             ts_headline(hits.config, hits.description, q.query, ?) AS description,
             ts_headline(hits.config, hits.body, q.query, ?) AS body
           FROM hits, q ORDER BY hits.rank DESC, hits.uid, hits.document_id`,
          [config, query, locale, limit, offset, TITLE_OPTIONS, SNIPPET_OPTIONS, SNIPPET_OPTIONS],
        ),
      );
      return { total: Number(total ?? 0), rows };
    },
  };
}

module.exports = { postgresStore, configOf };
