const { applyAuthSettings } = require('./auth-settings');
const { registerFullPathSync } = require('./page-hierarchy');
const { seedDemoSite, shouldSeed } = require('./seed');

module.exports = {
  register({ strapi }) {
    registerFullPathSync(strapi);
  },

  async bootstrap({ strapi }) {
    // Configuration: applied on every start (only what differs is written).
    await applyAuthSettings(strapi);
    if (shouldSeed()) await seedDemoSite(strapi);
  },
};
