"use strict";

const { carryOverFormerActions, registerAdminActions, watchEditorCreation } = require("./admin-actions");
const { answerAfterHeldWork } = require("./middlewares/hold-answer");
const { omitCycleParents } = require("./middlewares/parent-picker");
const { guardScheduleWrites } = require("./policies/may-schedule");

/**
 * - The admin actions (admin-actions.js), before Strapi's admin bootstrap prunes unregistered
 *   permissions; the grants of their former ids are carried over once the schema is synced; a
 *   new database's Editor role gets them when the admin's bootstrap creates it.
 * - The document middlewares, in this order: the revalidation is the outer one, so it sees a
 *   page's paths before the hierarchy rewrites them, and acts after the write committed.
 * - The Koa middleware that holds an editor's answer until the site has heard of a takedown, and
 *   the one that keeps the page parent picker from offering a cycle.
 * - The rules of scheduled publishing (services/schedule/rules.js), inside the revalidation: a
 *   refused publish sends nothing; and the policy that only a role that may publish a type sets
 *   its schedule (policies/may-schedule.js), on the Content Manager's create and update routes.
 */
module.exports = async ({ strapi }) => {
  await registerAdminActions(strapi);
  strapi.hook("strapi::content-types.afterSync").register(() => carryOverFormerActions(strapi));
  watchEditorCreation(strapi);

  const plugin = strapi.plugin("site-cache");
  plugin.service("revalidation").registerDocumentMiddleware();
  plugin.service("page-hierarchy").registerDocumentMiddleware();
  plugin.service("schedule").registerDocumentMiddleware();
  guardScheduleWrites(strapi);
  strapi.server.use(answerAfterHeldWork);
  strapi.server.use(omitCycleParents({ strapi }));
};
