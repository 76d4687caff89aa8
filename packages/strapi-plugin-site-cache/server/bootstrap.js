"use strict";

const { checkHierarchy } = require("./services/page-hierarchy/settings");
const { whenServing } = require("./utils/when-serving");

/**
 * The plugin starts itself; the application calls nothing.
 * - The content types' declarations are read from their schemas (services/site-types.js) and the
 *   `hierarchy` configuration is checked against them: a malformed `site-cache` block or a
 *   hierarchy the schemas do not bear out stops the start here, not at the first write.
 * - The hierarchy's edit view is made to say what the CMS does (services/page-layout/: its path
 *   read-only, the parent picker by path), after the Content Manager's own bootstrap has synced the
 *   stored layouts.
 * - The Editor role gets the plugin's admin actions once (services/permissions.js): here for a
 *   database whose Editor exists; a new database's Editor is created by the admin's bootstrap,
 *   which runs after this one, and gets them then (register.js watches for it).
 * - The revalidation and the scheduler start once Strapi serves (utils/when-serving.js): after the
 *   application's bootstrap, so a project's seed writes are not revalidated and what the scheduler
 *   publishes is.
 */
module.exports = async ({ strapi }) => {
  const plugin = strapi.plugin("site-cache");
  const declared = plugin.service("site-types").load();
  checkHierarchy(strapi.config.get("plugin::site-cache").hierarchy, strapi.contentTypes);
  strapi.log.info(`[revalidate] declared content types: ${[...declared.keys()].join(", ")}`);
  await plugin.service("page-layout").apply();
  await plugin.service("permissions").grantEditorOnce();
  whenServing(strapi, () => {
    plugin.service("revalidation").start();
    plugin.service("schedule").start();
  });
};
