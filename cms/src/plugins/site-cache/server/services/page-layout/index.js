"use strict";

const { pageEditLayout } = require("./layout");

const PAGE = "api::page.page";

/**
 * `strapi.plugin("site-cache").service("page-layout")`: keeps the page edit view truthful
 * (layout.js) in the Content Manager's stored configuration (core store key
 * `plugin_content_manager_configuration_content_types::api::page.page`), through the Content
 * Manager's own configuration service. Run on every start from the plugin's bootstrap, after the
 * Content Manager's (it creates or syncs the stored configuration): a new database and an existing
 * one, whose stored layout predates this, both get it.
 */
module.exports = ({ strapi }) => ({
  async apply() {
    const contentTypes = strapi.plugin("content-manager").service("content-types");
    const contentType = contentTypes.findContentType(PAGE);
    if (!contentType) return { changed: false };
    const stored = await contentTypes.findConfiguration(contentType);
    if (!stored?.metadatas?.fullPath) {
      strapi.log.warn("[site-cache] the page's edit view has no stored configuration yet: fullPath stays editable");
      return { changed: false };
    }
    const next = pageEditLayout(stored);
    if (!next) return { changed: false };
    await contentTypes.updateConfiguration(contentType, next);
    strapi.log.info("[site-cache] page edit view: fullPath read-only, parent picker by path");
    return { changed: true };
  },
});
