"use strict";

/**
 * Removing entries: the same statements on SQLite and PostgreSQL, since both keep their index in
 * step with `site_search_entries` (SQLite's FTS5 table by triggers, PostgreSQL's tsvector column
 * in the row itself). `raw(sql, bindings)`: knex's raw; every value is a binding.
 */
function entryDeletions(raw) {
  return {
    /** One document's entry in one locale, or in every locale when none is given. */
    async remove({ uid, documentId, locale }) {
      if (locale) {
        await raw("DELETE FROM site_search_entries WHERE uid = ? AND document_id = ? AND locale = ?", [
          uid,
          documentId,
          locale,
        ]);
      } else await raw("DELETE FROM site_search_entries WHERE uid = ? AND document_id = ?", [uid, documentId]);
    },
    async clear() {
      await raw("DELETE FROM site_search_entries");
    },
  };
}

module.exports = { entryDeletions };
