"use strict";

const { registerScheduleRules } = require("./rules");
const { scheduledTime } = require("./run-context");
const { runTick } = require("./tick");

const JOB = "site-cache-schedule";

/**
 * `strapi.plugin("site-cache").service("schedule")`: scheduled publishing
 * (docs/scheduled-publishing.md, docs/decisions/0039-scheduled-publishing.md).
 * - start(): adds the scheduler to Strapi's cron (config `scheduleCron`, CMS_SCHEDULE_CRON) and
 *   runs one pass at once, so what fell due while the CMS was down is done on start;
 * - stop(): removes it (the plugin's destroy);
 * - tick(): one pass (tick.js); a pass still running when the next is due is not doubled;
 * - scheduledTime(): inside a scheduled publish, the time it was due (run-context.js), else null;
 * - registerDocumentMiddleware(): the rules an editor's write meets (rules.js).
 */
module.exports = ({ strapi }) => {
  const config = strapi.config.get("plugin::site-cache");
  const siteTypes = () => strapi.plugin("site-cache").service("site-types");
  let running = null;

  const tick = async (now = new Date()) => {
    if (running) return running;
    running = runTick({
      db: strapi.db,
      documents: (uid) => strapi.documents(uid),
      declarations: [...siteTypes().declarations().values()],
      now,
      log: strapi.log,
    }).finally(() => {
      running = null;
    });
    return running;
  };

  const safeTick = () =>
    tick().catch((error) => strapi.log.error(`[schedule] the scheduler's pass failed: ${error.message}`));

  return {
    tick,
    scheduledTime,
    start() {
      const scheduled = [...siteTypes().declarations().values()].filter((d) => d.schedule).map((d) => d.uid);
      // No type declares `schedule: true`: nothing to publish on schedule, no job.
      if (scheduled.length === 0) return;
      if (!config.scheduleCron) {
        strapi.log.warn("[schedule] CMS_SCHEDULE_CRON is empty: this instance publishes nothing on schedule");
        return;
      }
      strapi.cron.add({ [JOB]: { task: safeTick, options: { rule: config.scheduleCron } } });
      // Strapi's cron logs a rule it cannot read and goes on: a scheduler that never runs must not start quietly.
      if (!strapi.cron.jobs.some((job) => job.name === JOB)) {
        throw new Error(`CMS_SCHEDULE_CRON "${config.scheduleCron}" is not a cron rule (e.g. "0 * * * * *")`);
      }
      strapi.log.info(`[schedule] scheduled publishing of ${scheduled.join(", ")} at "${config.scheduleCron}"`);
      void safeTick();
    },
    stop() {
      if (strapi.cron.jobs.some((job) => job.name === JOB)) strapi.cron.remove(JOB);
    },
    registerDocumentMiddleware() {
      registerScheduleRules(strapi, { siteTypes });
    },
  };
};
