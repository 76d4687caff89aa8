const { removeUnusedDefaultTokens, seedAdmin, seedReadOnlyToken } = require("./access");
const { seedDemoSiteOnce } = require("./demo-site");

/**
 * The development seed (CMS_SEED_DEMO, on unless NODE_ENV=production): the demo site's content,
 * once, into an empty database (demo-site.js), and on every start what is configuration: the
 * development admin and the front end's read-only API token (access.js).
 *
 * Seeding never stops the CMS from starting: a step that fails is logged, loudly, and the next
 * steps and Strapi's start go on (a failed content step wrote nothing and is tried again on the
 * next start).
 */

function shouldSeed() {
  const flag = process.env.CMS_SEED_DEMO;
  if (flag === "true" || flag === "false") return flag === "true";
  return process.env.NODE_ENV !== "production";
}

const STEPS = [
  ["the development admin", seedAdmin],
  ["the demo content", seedDemoSiteOnce],
  ["the removal of Strapi's unused default API tokens", removeUnusedDefaultTokens],
  ["the front end's read-only API token", seedReadOnlyToken],
];

/** Runs every step; resolves with the names of those that failed (each one logged). */
async function seedDemoSite(strapi) {
  const failed = [];
  for (const [name, step] of STEPS) {
    try {
      await step(strapi);
    } catch (error) {
      failed.push(name);
      strapi.log.error(
        `[seed] ${name} could not be set up; the CMS starts without it (tried again on the next start): ` +
          `${error?.stack ?? error}`,
      );
    }
  }
  return failed;
}

module.exports = { seedDemoSite, shouldSeed };
