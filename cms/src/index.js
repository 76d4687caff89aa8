const { applyAuthSettings } = require('./auth-settings');
const { registerFullPathSync } = require('./page-hierarchy');
const { registerRevalidation, startRevalidation, stopRevalidation } = require('./revalidation');
const { seedDemoSite, shouldSeed } = require('./seed');

module.exports = {
  register({ strapi }) {
    // Order matters: the revalidation middleware is the outer one, so it sees a page's paths
    // before the hierarchy middleware rewrites them, and acts after the write committed.
    registerRevalidation(strapi);
    registerFullPathSync(strapi);
  },

  async bootstrap({ strapi }) {
    // Configuration: applied on every start (only what differs is written).
    await applyAuthSettings(strapi);
    if (shouldSeed()) await seedDemoSite(strapi);
    // On only after the seed: a fresh database's seed writes are not revalidated.
    startRevalidation();
  },

  destroy() {
    stopRevalidation();
  },
};
