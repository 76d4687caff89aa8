"use strict";

const { publishedPages, recalculateAll, settleBatch } = require("./batch");
const { registerDanglingRedirectRemoval } = require("./deletes");
const { registerFullPathSync } = require("./full-path-sync");
const { hierarchySettings } = require("./settings");

/**
 * `strapi.plugin("site-cache").service("page-hierarchy")`: a page's fullPath follows its parent
 * chain (full-path-sync.js, a document middleware), moved published pages get redirects
 * (batch.js, moves.js), a deleted page's redirects go with it (deletes.js). It never calls the
 * revalidation: it says which paths changed, and the revalidation (or the recalculate controller)
 * sends them; a removed redirect is a document delete the revalidation middleware sees.
 * Opt-in: without the plugin's `hierarchy` configuration (settings.js) nothing is registered and
 * `settings()` is null; the other functions are then not called.
 */
module.exports = ({ strapi }) => ({
  settings: () => hierarchySettings(strapi),
  registerDocumentMiddleware: () => {
    if (!hierarchySettings(strapi)) return;
    registerFullPathSync(strapi);
    registerDanglingRedirectRemoval(strapi);
  },
  publishedPages: () => publishedPages(strapi),
  settleBatch: (before, options) => settleBatch(strapi, before, options),
  recalculateAll: () => recalculateAll(strapi),
});
