"use strict";

/**
 * The plugin's configuration, read once at start: the application's config/plugins.js reads the
 * environment and passes it here ("site-cache".config); nothing in the plugin reads process.env.
 * Its types: ../../index.d.ts (SiteCacheConfig); the package's README says the same for users.
 *
 * - clientUrl: the site as the CMS reaches it for revalidations and CDN purges (SITE_INTERNAL_URL,
 *   else CLIENT_URL), without a trailing slash.
 * - revalidateSecret: CMS_REVALIDATE_SECRET; empty: revalidation is off (logged once).
 * - cdnPurgeSecret: CMS_CDN_PURGE_SECRET; empty: no CDN purge.
 * - timeoutMs / retries / backoffMs: each revalidation request (CMS_REVALIDATE_TIMEOUT_MS,
 *   CMS_REVALIDATE_RETRIES, CMS_REVALIDATE_BACKOFF_MS).
 * - retryIntervalMs: the periodic retry of recorded failures (CMS_REVALIDATE_RETRY_INTERVAL_MS;
 *   0: none).
 * - takedownWaitMs: how long an editor's unpublish or delete waits for the site's answer
 *   (CMS_REVALIDATE_TAKEDOWN_WAIT_MS; decision 0010).
 * - purgeTimeoutMs: each CDN purge request to the site.
 * - publishWaitMs: how long an editor's publish waits for the site's answer and the CDN purge
 *   (CMS_REVALIDATE_PUBLISH_WAIT_MS; 0: not at all; decision 0028).
 * - batchWindowMs / batchMaxWaitMs: publishes within batchWindowMs of each other are sent as one
 *   request, at most batchMaxWaitMs after the first (CMS_REVALIDATE_BATCH_WINDOW_MS,
 *   CMS_REVALIDATE_BATCH_MAX_WAIT_MS; services/revalidation/batch.js).
 * - purgeRetries: retries of a CDN purge the site did not take (CMS_CDN_PURGE_RETRIES), before it
 *   is recorded as a failure.
 * - scheduleCron: when the scheduler runs the due publishes and unpublishes (CMS_SCHEDULE_CRON, a
 *   cron rule with seconds, Strapi's cron; "": no scheduler on this instance; services/schedule/).
 * - hierarchy: null (no page hierarchy), or { contentType, slugField, parentField, pathField,
 *   redirectType? }: the entries of contentType form a tree through parentField; pathField is
 *   derived from the parent's and slugField; a move of a published entry leaves a redirect (an entry
 *   of redirectType, with source, destination and permanent) unless redirectType is null
 *   (services/page-hierarchy/settings.js checks it against the schemas at bootstrap).
 */
const DEFAULTS = Object.freeze({
  clientUrl: "http://localhost:3000",
  revalidateSecret: "",
  cdnPurgeSecret: "",
  timeoutMs: 5_000,
  retries: 3,
  backoffMs: 500,
  retryIntervalMs: 30_000,
  takedownWaitMs: 3_000,
  purgeTimeoutMs: 10_000,
  publishWaitMs: 3_000,
  batchWindowMs: 100,
  batchMaxWaitMs: 1_000,
  purgeRetries: 2,
  scheduleCron: "0 * * * * *",
  hierarchy: null,
});

const DURATIONS = [
  "timeoutMs",
  "retries",
  "backoffMs",
  "retryIntervalMs",
  "takedownWaitMs",
  "purgeTimeoutMs",
  "publishWaitMs",
  "batchWindowMs",
  "batchMaxWaitMs",
  "purgeRetries",
];

function validator(config) {
  let url;
  try {
    url = new URL(config.clientUrl);
  } catch {
    throw new Error(`clientUrl "${config.clientUrl}" is not a URL (CLIENT_URL, e.g. https://www.example.com)`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error("clientUrl must be an http(s) URL");
  if (config.clientUrl.endsWith("/")) throw new Error("clientUrl must not end with /");
  for (const key of ["revalidateSecret", "cdnPurgeSecret", "scheduleCron"]) {
    if (typeof config[key] !== "string") throw new Error(`${key} must be a string`);
  }
  for (const key of DURATIONS) {
    if (!Number.isInteger(config[key]) || config[key] < 0) throw new Error(`${key} must be an integer >= 0`);
  }
  validateHierarchy(config.hierarchy);
}

const HIERARCHY_KEYS = ["contentType", "slugField", "parentField", "pathField"];

/** The shape of `hierarchy`; whether the schemas bear it out is checked at bootstrap (they are not loaded yet). */
function validateHierarchy(hierarchy) {
  if (hierarchy === null || hierarchy === undefined || hierarchy === false) return;
  if (typeof hierarchy !== "object" || Array.isArray(hierarchy))
    throw new Error("hierarchy must be null or { contentType, slugField, parentField, pathField, redirectType? }");
  for (const key of Object.keys(hierarchy)) {
    if (![...HIERARCHY_KEYS, "redirectType"].includes(key)) throw new Error(`hierarchy has an unknown key ${key}`);
  }
  for (const key of HIERARCHY_KEYS) {
    if (typeof hierarchy[key] !== "string" || !hierarchy[key])
      throw new Error(`hierarchy.${key} must be a non-empty string`);
  }
  const { redirectType } = hierarchy;
  if (redirectType !== undefined && redirectType !== null && (typeof redirectType !== "string" || !redirectType))
    throw new Error("hierarchy.redirectType must be a content type uid or null");
}

module.exports = { default: DEFAULTS, validator, DEFAULTS };
