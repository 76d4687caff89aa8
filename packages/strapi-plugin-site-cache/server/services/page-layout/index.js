"use strict";

const { hierarchySettings } = require("../page-hierarchy/settings");
const { pageEditLayout } = require("./layout");

/**
 * `strapi.plugin("site-cache").service("page-layout")`: keeps the page edit view truthful
 * (layout.js) in the Content Manager's stored configuration (core store key
 * `plugin_content_manager_configuration_content_types::<uid>`), through the Content
 * Manager's own configuration service. Run on every start from the plugin's bootstrap, after the
 * Content Manager's (it creates or syncs the stored configuration): a new database and an existing
 * one, whose stored layout predates this, both get it.
 */
module.exports = ({ strapi }) => ({
  async apply() {
    // Only for the configured hierarchy's type (page-hierarchy/settings.js).
    const hierarchy = hierarchySettings(strapi);
    if (!hierarchy) return { changed: false };
    const contentTypes = strapi.plugin("content-manager").service("content-types");
    const contentType = contentTypes.findContentType(hierarchy.uid);
    if (!contentType) return { changed: false };
    const stored = await contentTypes.findConfiguration(contentType);
    if (!stored?.metadatas?.[hierarchy.pathField]) {
      strapi.log.warn("[site-cache] the page's edit view has no stored configuration yet: its path stays editable");
      return { changed: false };
    }
    const next = pageEditLayout(stored, hierarchy);
    if (!next) return { changed: false };
    await contentTypes.updateConfiguration(contentType, next);
    strapi.log.info("[site-cache] page edit view: fullPath read-only, parent picker by path");
    return { changed: true };
  },
});
