const { applyAuthSettings } = require("./auth-settings");
const { registerFullPathSync } = require("./page-hierarchy");
const { registerRevalidation, startRevalidation, stopRevalidation } = require("./revalidation");
const { registerAdminPermissions, grantEditorOnce } = require("./revalidation/admin-permission");
const { seedDemoSite, shouldSeed } = require("./seed");

module.exports = {
  async register({ strapi }) {
    // Admin RBAC actions for revalidate / CDN purge / hierarchy recalculation: registered here,
    // before Strapi's admin bootstrap prunes unregistered permissions (admin-permission.js).
    await registerAdminPermissions(strapi);
    // Order matters: the revalidation middleware is the outer one, so it sees a page's paths
    // before the hierarchy middleware rewrites them, and acts after the write committed.
    registerRevalidation(strapi);
    registerFullPathSync(strapi);
  },

  async bootstrap({ strapi }) {
    // Configuration: applied on every start (only what differs is written).
    await applyAuthSettings(strapi);
    // The Editor role gets the admin actions once; an admin's later removal sticks.
    await grantEditorOnce(strapi);
    // Demo content once into an empty database, the read-only token on every start; never throws
    // (a failing step is logged and Strapi starts): cms/src/seed/index.js.
    if (shouldSeed()) await seedDemoSite(strapi);
    // On only after the seed: a fresh database's seed writes are not revalidated.
    startRevalidation();
  },

  destroy() {
    stopRevalidation();
  },
};
