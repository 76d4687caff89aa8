"use strict";

/**
 * What the Content Manager's edit view of a page must say (pure; unit-tested in layout.test.js):
 * - `fullPath` is derived (../page-hierarchy/full-path-sync.js drops a value sent by a client), so
 *   it is shown read-only with a hint saying how to change it: typing into it would otherwise be
 *   silently undone on save.
 * - the `parent` picker shows the candidates' paths (their fullPath: unique per locale, and the
 *   address the page will live under), not their titles, which pages may share.
 *
 * Only these keys of the stored configuration are touched: an admin's other choices in
 * "Configure the view" (labels of other fields, order, sizes, list columns) stay as they are.
 */
const FULL_PATH_HINT =
  "Set by the CMS from the parent's path and the slug: change those to move the page. " +
  "Moving a published page redirects its old address to the new one.";
const PARENT_HINT =
  "Listed by path. The page itself and the pages below it are not offered: a page cannot be under itself.";

/** The keys wanted on the configured path and parent attributes (the site's: fullPath and parent). */
const wantedMetadata = ({ pathField, parentField }) => ({
  [pathField]: { editable: false, description: FULL_PATH_HINT },
  [parentField]: { mainField: pathField, description: PARENT_HINT },
});

/**
 * The stored configuration → the configuration to store, or null when it already says all of the
 * above (nothing to write). A configuration without the fields' metadata (the Content Manager has
 * not synced the type yet) also answers null.
 */
function pageEditLayout(configuration, fields = { pathField: "fullPath", parentField: "parent" }) {
  const metadatas = configuration?.metadatas;
  const WANTED = wantedMetadata(fields);
  if (!metadatas || Object.keys(WANTED).some((field) => !metadatas[field]?.edit)) return null;
  let changed = false;
  const next = { ...metadatas };
  for (const [field, wanted] of Object.entries(WANTED)) {
    const edit = metadatas[field].edit;
    if (Object.entries(wanted).every(([key, value]) => edit[key] === value)) continue;
    next[field] = { ...metadatas[field], edit: { ...edit, ...wanted } };
    changed = true;
  }
  return changed ? { ...configuration, metadatas: next } : null;
}

module.exports = { pageEditLayout, FULL_PATH_HINT, PARENT_HINT };
