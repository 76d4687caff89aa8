"use strict";

const { registerRevalidationMiddleware } = require("./document-middleware");
const { documentTag } = require("@cms-site/cache-tags");
const { createRevalidationService } = require("./service");

/**
 * `strapi.plugin("site-cache").service("revalidation")`: one per Strapi, configured once from the
 * plugin's config (config/index.js). service.js builds and sends (sending.js), records failures
 * (failure-records.js), retries them (retrying.js) and purges the CDN (purging.js);
 * document-middleware.js turns editor writes of the declared types (the site-types service) into
 * revalidations, using the page-hierarchy service for a publish that moves pages (one way: the
 * hierarchy never calls the revalidation).
 */
module.exports = ({ strapi }) => {
  const service = createRevalidationService(strapi, {
    // Strapi's APP_KEYS sign the recorded failures (failure-signature.js).
    config: { ...strapi.config.get("plugin::site-cache"), signingKeys: strapi.config.get("server.app.keys") },
  });
  return {
    ...service,
    /** Re-renders whatever shows these documents (their document tags): a change made outside the document service. */
    revalidateDocuments(uid, documentIds) {
      return service.revalidate({ uid, tags: documentIds.map((documentId) => documentTag(uid, documentId)) });
    },
    registerDocumentMiddleware() {
      registerRevalidationMiddleware(strapi, service, {
        hierarchy: strapi.plugin("site-cache").service("page-hierarchy"),
        siteTypes: strapi.plugin("site-cache").service("site-types"),
        isReady: service.isReady,
      });
    },
  };
};
