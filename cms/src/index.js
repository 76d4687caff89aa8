const { registerFullPathSync } = require('./page-hierarchy');
const { seedDemoSite, shouldSeed } = require('./seed');

module.exports = {
  register({ strapi }) {
    registerFullPathSync(strapi);
  },

  async bootstrap({ strapi }) {
    if (shouldSeed()) await seedDemoSite(strapi);
  },
};
