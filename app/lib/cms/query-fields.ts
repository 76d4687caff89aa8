/**
 * Which attributes' values decide what a list query answers, besides which documents are
 * published: the attributes its `filters` name and those it sorts by. A listing filtered by
 * `employmentType` changes when an edit changes one document's `employmentType`, though no document
 * joined or left the type's list; sorted by `title`, when a title edit moves a document onto or off
 * its page. recordedTags (client.server.ts) records a field tag per attribute, which the CMS sends
 * when a published document's value of it changed (docs/cms-contract.md, C7; decision 0033).
 */

/** A Strapi attribute name: what a field tag may carry (a query key is never a visitor's input, checked anyway). */
const ATTRIBUTE = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Never changed by an edit: a document's identity and its locale (the list tag covers them joining or leaving). */
const FIXED = new Set(["id", "documentId", "locale"]);

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The attributes named at the top of a filter and inside its logical operators (`$and`, `$or`:
 * arrays; `$not`: an object), at any depth. A relation's or component's nested filter
 * (`{ category: { slug: { $eq } } }`) names the relation's attribute: the CMS sends its tag when
 * the link changes and when a linked document changes (C7).
 */
function filteredAttributes(filters: unknown, into: Set<string>): void {
  if (Array.isArray(filters)) {
    for (const item of filters) filteredAttributes(item, into);
    return;
  }
  if (!isPlainObject(filters)) return;
  for (const [key, value] of Object.entries(filters)) {
    if (key.startsWith("$")) filteredAttributes(value, into);
    else into.add(key);
  }
}

/**
 * The attributes a `sort` names, in any of the forms Strapi takes: `"title:asc"`,
 * `"title:asc,slug:desc"`, `["title:asc"]`, `{ title: "asc" }`, `[{ title: "asc" }]`; a nested
 * sort (`"category.name:asc"`) names the relation's attribute.
 */
function sortedAttributes(sort: unknown, into: Set<string>): void {
  if (Array.isArray(sort)) {
    for (const item of sort) sortedAttributes(item, into);
  } else if (typeof sort === "string") {
    for (const part of sort.split(",")) into.add(part.trim().split(/[.:]/)[0] ?? "");
  } else if (isPlainObject(sort)) {
    for (const key of Object.keys(sort)) into.add(key);
  }
}

/** The attributes of a list query whose values decide its answer (filters unless `filtersCovered`, sort), sorted. */
export function queryFields(query: Record<string, unknown> | undefined, { filtersCovered = false } = {}): string[] {
  const found = new Set<string>();
  if (!filtersCovered) filteredAttributes(query?.filters, found);
  sortedAttributes(query?.sort, found);
  return [...found].filter((name) => ATTRIBUTE.test(name) && !FIXED.has(name)).sort();
}
