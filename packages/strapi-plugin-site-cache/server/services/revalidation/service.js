"use strict";

const { createRevalidationClient } = require("./client");
const { cachedDefaultLocale } = require("./default-locale");
const { createFailureRecords, FAILURE, UNVERIFIED } = require("./failure-records");
const { createFailureSigner } = require("./failure-signature");
const { buildPayload } = require("./payload");
const { createCdnPurger } = require("./purging");
const { createFailureRetrier } = require("./retrying");
const { createSender } = require("./sending");

/**
 * The revalidation service: `revalidate({ uid, fullPaths?, locale?, tags? })` builds the
 * payload (payload.js) and sends it (sending.js; client.js: timeout, retries with backoff). A
 * revalidation the front end did not accept is kept in the database (content type "Revalidation
 * failure", hidden from the Content Manager; the "Site cache" page lists it), signed
 * (failure-records.js, failure-signature.js), and retried (retrying.js) every retryIntervalMs
 * (config/index.js) until it is delivered (then the row is deleted); a row whose signature does
 * not verify is never sent (marked rejected). 401 (secret mismatch) and
 * other 4xx rows are kept but not retried periodically; 401 rows are retried once at the next
 * start (the secret may have been fixed in the meantime). CMS_REVALIDATE_SECRET unset:
 * revalidation is off (logged once).
 *
 * A takedown (`expire: true`: unpublish, delete, or asked for) is also purged from the CDN in
 * front of the site, in this order: the site first (it expires the pages, on every instance,
 * and answers 200), and only then the purge (the site's POST /api/cdn-purge, with
 * CMS_CDN_PURGE_SECRET; the paths the site says it expired, and the tags; purging.js). Purged
 * the other way round, or at the same time, the CDN could fetch the old page again from an instance that had
 * not expired it yet, and keep it. A takedown the site did not accept is purged once a retry
 * delivers it. CMS_CDN_PURGE_SECRET unset, or no CDN on the site (501): no purge.
 *
 * Every revalidation the site accepted is purged from the CDN the same way (decision 0028): a
 * publish softly (`soft: true`; the site decides whether its CDN does soft purges), a takedown
 * hard. The site answers a publish only once it has rendered the stale pages of its paths again,
 * so the CDN's next fetch gets the new page. A purge that fails is retried (purgeRetries, with
 * backoff) and then recorded as a failure (the editors' failures page), whose retry sends the
 * revalidation and the purge again.
 *
 * Publishes are coalesced (batch.js): the payloads of writes within `batchWindowMs` of each other
 * (at most `batchMaxWaitMs` after the first) make one request to the site and one purge. Each
 * payload carries `committedAt` (when the CMS sent it on, right after the commit): the site's
 * publish_to_visible_seconds starts there.
 *
 * `revalidate(input, { waitMs })` (the editor's takedowns, middleware.js) resolves within waitMs:
 * once the site has answered (and, for a takedown, the CDN purge that follows has), or when the
 * time is up. A site that has not answered by then: the revalidation is recorded as a pending
 * failure at once (the editors' failures page shows it) and sending goes on in the background;
 * its answer settles that row (deleted once delivered, updated otherwise). A purge still running
 * goes on too (logged as always). `takedownWaitMs`, the editor's bound:
 * CMS_REVALIDATE_TAKEDOWN_WAIT_MS, default 3000. With a CDN purge to follow (CMS_CDN_PURGE_SECRET),
 * a publish is bounded by `publishWaitMs` (CMS_REVALIDATE_PUBLISH_WAIT_MS, default 3000; 0: the
 * editor's answer never waits for it): past it the batch goes on in the background and records its
 * own failure if it fails. Without one, publishes are not held, as before.
 */
function createRevalidationService(strapi, { config, fetch, sleep = (ms) => new Promise((r) => setTimeout(r, ms)) }) {
  // config: the plugin's, whole and checked (config/index.js: defaults and validator), with
  // signingKeys, Strapi's APP_KEYS (index.js).
  const { clientUrl, takedownWaitMs, revalidateSecret: secret, cdnPurgeSecret } = config;
  // Only with a CDN purge to wait for: without one the site's next answer is STALE anyway (0003).
  const publishWaitMs = cdnPurgeSecret ? config.publishWaitMs : 0;
  const client = createRevalidationClient({
    clientUrl,
    secret,
    fetch,
    sleep,
    timeoutMs: config.timeoutMs,
    retries: config.retries,
    baseDelayMs: config.backoffMs,
    log: strapi.log,
  });
  const failures = createFailureRecords(strapi, createFailureSigner(config.signingKeys));
  const purger = createCdnPurger(strapi, {
    config,
    fetch,
    pause: sleep,
    delayFor: client.delayFor,
    record: failures.record,
  });
  const sender = createSender(strapi, { config, publishWaitMs, client, failures, purger });
  const retrier = createFailureRetrier(strapi, { config, client, failures, settle: sender.settle });
  const defaultLocale = cachedDefaultLocale(strapi);
  let ready = false;
  let loggedOff = false;

  const enabled = () => Boolean(secret);

  function logOffOnce() {
    if (loggedOff) return;
    loggedOff = true;
    strapi.log.warn(
      "[revalidate] CMS_REVALIDATE_SECRET is not set: automatic cache revalidation of the front end is off.",
    );
  }

  /**
   * Builds, sends and settles (records a failure; purges a delivered revalidation from the CDN,
   * unless `purgeCdn: false`). With `waitMs`: resolves by then at the latest (see above;
   * `answered: false` when the site had not). Never rejects.
   */
  async function revalidate(input, options = {}) {
    let payload;
    try {
      payload = buildPayload(input, { defaultLocale: await defaultLocale() });
    } catch (error) {
      strapi.log.error(`[revalidate] bad input ${JSON.stringify(input)}: ${error.message}`);
      return { sent: false, reason: error.message, payload: null };
    }
    if (!payload) return { sent: false, reason: "nothing to revalidate", payload: null };
    if (!enabled()) {
      logOffOnce();
      return { sent: false, reason: "CMS_REVALIDATE_SECRET is not set", payload };
    }
    return sender.send(payload, options);
  }

  /** Retries the recorded failures (retrying.js); nothing while revalidation is off. */
  async function retryFailures(options) {
    if (!enabled()) return { retried: 0, delivered: 0, refused: 0 };
    return retrier.retryFailures(options);
  }

  /** On once Strapi serves (the plugin's bootstrap, utils/when-serving.js: after the application's, whose seed writes are not revalidated). */
  function start() {
    ready = true;
    if (!enabled()) {
      logOffOnce();
      return;
    }
    strapi.log.info(
      `[revalidate] on: ${client.url}; failed revalidations are retried every ${config.retryIntervalMs} ms`,
    );
    retrier.start();
  }

  function stop() {
    ready = false;
    retrier.stop();
  }

  return {
    revalidate,
    retryFailures,
    track: sender.track,
    inFlight: sender.inFlight,
    start,
    stop,
    isReady: () => ready,
    enabled,
    defaultLocale,
    clientUrl,
    takedownWaitMs,
    /** The editor's publish is answered after its revalidation (and purge), within publishWaitMs. */
    holdsPublishes: publishWaitMs > 0,
    batches: sender.batches,
  };
}

module.exports = { createRevalidationService, FAILURE, UNVERIFIED };
