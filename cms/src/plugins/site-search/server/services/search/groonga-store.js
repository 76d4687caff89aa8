"use strict";

const { EngineError } = require("./groonga-client");
const { configOf } = require("./postgres-store");
const { foldTerms, markAll, searchText, snippet } = require("./search-words");

/**
 * The index in Groonga (SEARCH_ENGINE=groonga, decision 0038): for each locale a table of entries
 * (key `<uid>/<documentId>`; the text as shown, and its folded words, search-words.js) and a
 * lexicon of its own, whose stem filter is the locale's language (Snowball, the same names as
 * PostgreSQL's configurations; none for a language without one), made the first time the locale
 * is written. Queried with a filter built here from the folded terms only (letters and digits):
 * for each term `query(columns, "word OR word*", {"flags": "NONE"})` (the word, stemmed, or a word
 * it begins), all required, weighted title 10, description 4, body 1 like the SQLite store's bm25.
 * One query() per term because in one query string a `word*` makes Groonga 13 search every word
 * after it as a prefix too ("berlin* office" misses "office", stemmed "offic"). The matched words are marked here (search-words.js) with
 * \u0002…\u0003, as the other stores' output is, on the page of results only.
 */
const ENTRIES = "SiteSearchEntries_";
const TERMS = "SiteSearchTerms_";
const MATCH_COLUMNS = "title_words * 10 || description_words * 4 || body_words";
const TEXT_COLUMNS = [
  ["uid", "ShortText"],
  ["document_id", "ShortText"],
  ["path", "Text"],
  ["title", "Text"],
  ["description", "Text"],
  ["body", "LongText"],
  ["title_words", "Text"],
  ["description_words", "Text"],
  ["body_words", "LongText"],
];
const INDEXED = ["title_words", "description_words", "body_words"];
const SNIPPET_WORDS = { description: 32, body: 24 };

/** A locale code as a part of a Groonga name ([A-Za-z0-9_]): other characters as `_<hex>`. */
const nameOf = (locale) => String(locale).replace(/[^A-Za-z0-9]/g, (c) => `_${c.codePointAt(0).toString(16)}`);
const keyOf = (uid, documentId) => `${uid}/${documentId}`;
const isWord = (term) => /^[\p{L}\p{N}]+$/u.test(term);

/** A string literal of Groonga's script syntax. */
const literal = (value) => `"${String(value).replace(/[\\"]/g, "\\$&")}"`;

/**
 * The filter Groonga evaluates: nothing of it comes from the visitor but words of letters and
 * digits (isWord: a term that is not one is dropped, though queryTerms never gives one), each a
 * string literal, and none of Groonga's query syntax allowed in it (flags NONE: no `column:`).
 */
const groongaFilter = (terms) =>
  foldTerms(terms)
    .filter(isWord)
    .map((term) => `query(${literal(MATCH_COLUMNS)}, ${literal(`${term} OR ${term}*`)}, {"flags": "NONE"})`)
    .join(" && ");

const rowsOfSelect = (body) => {
  const [[total], columns, ...rows] = body[0];
  const names = columns.map(([name]) => name);
  return { total, rows: rows.map((row) => Object.fromEntries(names.map((name, i) => [name, row[i]]))) };
};

function groongaStore(client) {
  const ready = new Set();
  const exists = (name) => client.command("object_exist", { name });
  /**
   * Groonga refusing a write or a search may mean that its tables are gone (Groonga started on a
   * new database while the CMS runs): tried once more, the tables looked for (and made) again.
   */
  const lookingForTablesAgain = (job) =>
    job().catch(async (error) => {
      if (!(error instanceof EngineError)) throw error;
      ready.clear();
      // A new database has no plugins registered either: the stem filter its tables name.
      await registerStemFilter();
      return job();
    });
  // The stem filter is a plugin of the database; registering it again is harmless.
  const registerStemFilter = () => client.command("plugin_register", { name: "token_filters/stem" });

  /** Made unless there: a second CMS making it at the same time makes this call fail, and then it is there. */
  async function make(name, command, args) {
    if (await exists(name)) return;
    try {
      await client.command(command, args);
    } catch (error) {
      if (!(await exists(name))) throw error;
    }
  }

  async function tablesFor(locale) {
    const code = nameOf(locale);
    const entries = `${ENTRIES}${code}`;
    const terms = `${TERMS}${code}`;
    if (ready.has(code)) return { entries, terms };
    await make(entries, "table_create", { name: entries, flags: "TABLE_HASH_KEY", key_type: "ShortText" });
    for (const [name, type] of TEXT_COLUMNS) {
      await make(`${entries}.${name}`, "column_create", { table: entries, name, flags: "COLUMN_SCALAR", type });
    }
    const language = configOf(locale);
    await make(terms, "table_create", {
      name: terms,
      flags: "TABLE_PAT_KEY",
      key_type: "ShortText",
      default_tokenizer: "TokenDelimit",
      normalizer: "NormalizerAuto",
      ...(language === "simple" ? {} : { token_filters: `TokenFilterStem("algorithm", "${language}")` }),
    });
    for (const source of INDEXED) {
      await make(`${terms}.${source}`, "column_create", {
        table: terms,
        name: source,
        flags: "COLUMN_INDEX|WITH_POSITION",
        type: entries,
        source,
      });
    }
    ready.add(code);
    return { entries, terms };
  }

  async function entryTables() {
    const [columns, ...rows] = await client.command("table_list");
    const name = columns.findIndex(([column]) => column === "name");
    return rows.map((row) => row[name]).filter((table) => table.startsWith(ENTRIES));
  }

  async function existing(locale) {
    const code = nameOf(locale);
    return ready.has(code) || (await exists(`${ENTRIES}${code}`)) ? tablesFor(locale) : null;
  }

  return {
    async ensure() {
      await registerStemFilter();
    },
    async count() {
      let total = 0;
      for (const table of await entryTables()) {
        total += rowsOfSelect(
          await client.command("select", { table, limit: 0, output_columns: "_id", cache: "no" }),
        ).total;
      }
      return total;
    },
    upsert: (entry) => lookingForTablesAgain(() => upsert(entry)),
    async remove({ uid, documentId, locale }) {
      const tables = locale ? [(await existing(locale))?.entries].filter(Boolean) : await entryTables();
      // An entry that is not there (a document never published in the locale) answers false, no error.
      for (const table of tables) await client.command("delete", { table, key: keyOf(uid, documentId) });
    },
    async clear() {
      for (const table of await entryTables()) {
        await client.command("truncate", { target_name: table });
        await client.command("truncate", { target_name: `${TERMS}${table.slice(ENTRIES.length)}` });
      }
    },
    search: (query) => lookingForTablesAgain(() => search(query)),
  };

  async function upsert({ uid, documentId, locale, path, title, description, body }) {
    const { entries } = await tablesFor(locale);
    await client.load(entries, [
      {
        _key: keyOf(uid, documentId),
        uid,
        document_id: documentId,
        path,
        title,
        description,
        body,
        title_words: searchText(title),
        description_words: searchText(description),
        body_words: searchText(body),
      },
    ]);
  }

  async function search({ terms, locale, limit, offset }) {
    const tables = await existing(locale);
    const filter = groongaFilter(terms);
    if (!tables || !filter) return { total: 0, rows: [] };
    const { total, rows } = rowsOfSelect(
      await client.command("select", {
        table: tables.entries,
        filter,
        output_columns: "uid,document_id,path,title,description,body",
        sort_keys: "-_score,_id",
        offset,
        limit,
        cache: "no",
      }),
    );
    const prefixes = await markPrefixes(tables.terms, terms, locale);
    return {
      total,
      rows: rows.map((row) => ({
        uid: row.uid,
        documentId: row.document_id,
        locale,
        path: row.path,
        title: markAll(row.title, prefixes),
        description: snippet(row.description, prefixes, SNIPPET_WORDS.description),
        body: snippet(row.body, prefixes, SNIPPET_WORDS.body),
      })),
    };
  }

  /** The folded terms and their stems in the locale's language: a word beginning with one is marked ("offices" marks "office"). */
  async function markPrefixes(terms, queryTerms, locale) {
    const folded = foldTerms(queryTerms);
    if (configOf(locale) === "simple") return folded;
    const tokens = await client.command("table_tokenize", { table: terms, string: folded.join(" "), mode: "GET" });
    return [...new Set([...folded, ...tokens.map((token) => token.value)])];
  }
}

module.exports = { groongaStore, groongaFilter, nameOf };
