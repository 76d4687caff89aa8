"use strict";

/**
 * The page hierarchy is opt-in: the plugin's `hierarchy` configuration names the content type
 * whose entries form a tree and the attributes that make it (index.d.ts, `HierarchyConfig`).
 * Without it (the default) none of page-hierarchy/, page-layout/, the parent picker's middleware
 * or the recalculate route acts on anything.
 *
 * `hierarchySettings(strapi)` → null, or
 * `{ uid, slugField, parentField, pathField, childrenField, redirectType }`: `childrenField` is the
 * other side of the parent relation (its `inversedBy`, null when it has none); `redirectType` null
 * when moves leave no redirects. `checkHierarchy(config, contentTypes)` throws on a configuration
 * the schemas do not bear out (the plugin's bootstrap: a typo stops the start, not a later save).
 */
function hierarchySettings(strapi) {
  const config = strapi.plugin("site-cache").config("hierarchy");
  if (!config) return null;
  const parent = strapi.contentTypes[config.contentType]?.attributes?.[config.parentField];
  return {
    uid: config.contentType,
    slugField: config.slugField,
    parentField: config.parentField,
    pathField: config.pathField,
    childrenField: parent?.inversedBy ?? null,
    redirectType: config.redirectType ?? null,
  };
}

const REDIRECT_ATTRIBUTES = { source: "string", destination: "string", permanent: "boolean" };

function checkHierarchy(config, contentTypes) {
  if (!config) return;
  const fail = (message) => {
    throw new Error(`site-cache: the "hierarchy" configuration: ${message}`);
  };
  const schema = contentTypes[config.contentType];
  if (!schema) fail(`contentType ${config.contentType} is not a content type of this Strapi`);
  if (schema.kind !== "collectionType") fail(`${config.contentType} must be a collection type`);
  if (!schema.pluginOptions?.i18n?.localized)
    fail(`${config.contentType} must be localized (i18n): paths are per locale`);
  const attributes = schema.attributes ?? {};
  for (const key of ["slugField", "pathField"]) {
    const type = attributes[config[key]]?.type;
    if (type !== "string" && type !== "uid") fail(`${key} ${config[key]} must be a string or uid attribute`);
  }
  const parent = attributes[config.parentField];
  if (parent?.type !== "relation" || parent.target !== config.contentType || parent.relation !== "manyToOne")
    fail(`parentField ${config.parentField} must be a manyToOne relation of ${config.contentType} to itself`);
  if (!config.redirectType) return;
  const redirect = contentTypes[config.redirectType];
  if (!redirect) fail(`redirectType ${config.redirectType} is not a content type of this Strapi`);
  for (const [name, type] of Object.entries(REDIRECT_ATTRIBUTES)) {
    if (redirect.attributes?.[name]?.type !== type) fail(`${config.redirectType} needs a ${type} attribute ${name}`);
  }
}

module.exports = { hierarchySettings, checkHierarchy };
