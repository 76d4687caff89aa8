"use strict";

/**
 * The plugin's configuration (cms/config/plugins.js reads the environment):
 * - siteSecret: CMS_ACCOUNT_API_SECRET, the header secret the site's server sends (X-Site-Secret);
 *   empty: POST /api/form-submissions answers 503 (nobody may write submissions unchecked);
 * - retryIntervalMs: how often mails not yet sent are tried again (CMS_FORM_MAIL_RETRY_MS);
 * - retryBaseSeconds: the wait after a first failed attempt, doubled after each (capped at an hour);
 * - maxMailAttempts: after this many failed attempts a submission's mail is `failed` (it stays stored);
 * - maxExportRows: the most rows one export answers.
 */
module.exports = {
  default: {
    siteSecret: "",
    retryIntervalMs: 60_000,
    retryBaseSeconds: 60,
    maxMailAttempts: 8,
    maxExportRows: 10_000,
  },
  validator(config) {
    for (const name of ["retryIntervalMs", "retryBaseSeconds", "maxMailAttempts", "maxExportRows"]) {
      if (!Number.isInteger(config[name]) || config[name] < 1) {
        throw new Error(`[forms] ${name} must be a positive integer (got ${config[name]})`);
      }
    }
  },
};
