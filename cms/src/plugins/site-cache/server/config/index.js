"use strict";

/**
 * The plugin's configuration, read once at start: cms/config/plugins.js reads the environment
 * and passes it here ("site-cache".config); nothing in the plugin reads process.env.
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
}

module.exports = { default: DEFAULTS, validator, DEFAULTS };
