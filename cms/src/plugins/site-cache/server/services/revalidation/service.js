"use strict";

const { forwardPurge } = require("../cdn-purge/forward");
const { createBatcher } = require("./batch");
const { createRevalidationClient } = require("./client");
const { createFailureSigner } = require("./failure-signature");
const { buildPayload } = require("./payload");
const { claimFailure, takeRetryTurn } = require("./retry-turns");

const FAILURE = "plugin::site-cache.revalidation-failure";
/** Why the retry refused a recorded failure (failure-signature.js): shown on the failures page. */
const UNVERIFIED =
  "Not sent: its signature does not verify, so the CMS did not record it as it is (written by hand or changed since; or recorded under other APP_KEYS). Revalidate by hand if it is needed.";

/** What `within` resolves to when the time ran out first. */
const LATE = Symbol("late");
/**
 * Paths and tags per CDN purge request to the site: it takes 1,000 of each (server/cdn/purge.ts)
 * and adds a tag per path, so 500 + 500 stay within its tags too.
 */
const PURGE_CHUNK = 500;
/** The site refused the purge request itself (its 4xx but 401 and 429): no retry would be taken. */
const refusedPurge = ({ siteStatus }) =>
  siteStatus >= 400 && siteStatus < 500 && siteStatus !== 401 && siteStatus !== 429;

/** `promise`'s value, or LATE if it has none by `deadline` (a Date.now() time; Infinity: no limit). */
function within(promise, deadline) {
  if (deadline === Infinity) return promise;
  let timer;
  const late = new Promise((resolve) => {
    timer = setTimeout(resolve, Math.max(0, deadline - Date.now()), LATE);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/**
 * The revalidation service: `revalidate({ uid, fullPaths?, locale?, tags? })` builds the
 * payload and sends it (client.js: timeout, retries with backoff). A revalidation the front
 * end did not accept is kept in the database (content type "Revalidation failure", hidden from
 * the Content Manager; the "Site cache" page lists it), signed (failure-signature.js), and retried
 * every retryIntervalMs (config/index.js) until it is delivered (then the row is deleted); a row
 * whose signature does not verify is never sent (marked rejected). 401 (secret mismatch) and
 * other 4xx rows are kept but not retried periodically; 401 rows are retried once at the next
 * start (the secret may have been fixed in the meantime). CMS_REVALIDATE_SECRET unset:
 * revalidation is off (logged once).
 *
 * A takedown (`expire: true`: unpublish, delete, or asked for) is also purged from the CDN in
 * front of the site, in this order: the site first (it expires the pages, on every instance,
 * and answers 200), and only then the purge (the site's POST /api/cdn-purge, with
 * CMS_CDN_PURGE_SECRET; the paths the site says it expired, and the tags). Purged the other way
 * round, or at the same time, the CDN could fetch the old page again from an instance that had
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
function createRevalidationService(strapi, { config, fetch, sleep }) {
  const { clientUrl, takedownWaitMs, retryIntervalMs } = config;
  const secret = config.revalidateSecret;
  const purgeSecret = config.cdnPurgeSecret;
  // Only with a CDN purge to wait for: without one the site's next answer is STALE anyway (0003).
  const publishWaitMs = purgeSecret ? (config.publishWaitMs ?? 0) : 0;
  const purgeRetries = config.purgeRetries ?? 2;
  const pause = sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  // config.signingKeys: Strapi's APP_KEYS (index.js).
  const signer = createFailureSigner(config.signingKeys);
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
  let timer = null;
  let ready = false;
  let retrying = null;
  let inFlight = 0;
  let loggedOff = false;
  let defaultLocaleCache = { value: null, at: 0 };
  /** Publishes' payloads, merged into one request per window (batch.js). */
  const batcher = createBatcher({
    windowMs: config.batchWindowMs ?? 100,
    maxWaitMs: config.batchMaxWaitMs ?? 1_000,
    send: (merged) => track(async () => settle(merged, await client.send(merged))),
  });

  const enabled = () => Boolean(secret);

  function logOffOnce() {
    if (loggedOff) return;
    loggedOff = true;
    strapi.log.warn(
      "[revalidate] CMS_REVALIDATE_SECRET is not set: automatic cache revalidation of the front end is off.",
    );
  }

  async function defaultLocale() {
    if (defaultLocaleCache.value && Date.now() - defaultLocaleCache.at < 60_000) return defaultLocaleCache.value;
    let value = "en";
    try {
      value = (await strapi.plugin("i18n").service("locales").getDefaultLocale()) || "en";
    } catch {
      // i18n not ready: keep 'en'
    }
    defaultLocaleCache = { value, at: Date.now() };
    return value;
  }

  /** The failure row's fields for a send's result (attempts added to the row's earlier ones). */
  const failureFields = (result, earlierAttempts = 0) => ({
    state: result.status === 401 ? "unauthorized" : result.retryable ? "pending" : "rejected",
    attempts: earlierAttempts + result.attempts,
    lastStatus: result.status || null,
    lastError: String(result.error ?? "").slice(0, 2000),
    lastTriedAt: new Date(),
    // Sent and settled: no instance is sending it any more (retry-turns.js).
    sendingUntil: null,
  });

  /** Records a failure: the new row, or null when it could not be written (logged). */
  async function record(payload, result) {
    let data;
    try {
      data = { uid: payload.uid, payload, signature: signer.sign(payload.uid, payload), ...failureFields(result) };
      const row = await strapi.db.query(FAILURE).create({ data });
      strapi.log.error(
        `[revalidate] not delivered (${result.error ?? result.status}); ` +
          `recorded as a revalidation failure (${data.state}): ${JSON.stringify(payload)}`,
      );
      return row;
    } catch (error) {
      // The last resort: the log line must carry everything needed to redo it by hand.
      strapi.log.error(
        `[revalidate] not delivered and could not be recorded (${error.message}): ${JSON.stringify(payload)}`,
      );
      return null;
    }
  }

  /**
   * What follows a send's result, for a new revalidation (row null) or a recorded one (row): a
   * failure is recorded (or the row updated); a delivery deletes the row, and a takedown the site
   * accepted is then purged from the CDN (`purgeCdn: false` skips that; waited for until
   * `deadline`, then left running). Never rejects.
   */
  async function settle(payload, result, { row = null, purgeCdn = true, deadline = Infinity, how = "on retry" } = {}) {
    if (!result.ok) {
      if (!row) await record(payload, result);
      else
        await strapi.db
          .query(FAILURE)
          .update({ where: { id: row.id }, data: failureFields(result, row.attempts ?? 0) })
          .catch((error) => strapi.log.error(`[revalidate] could not update failure #${row.id}: ${error.message}`));
      return { sent: true, payload, ...result };
    }
    if (row) {
      await strapi.db
        .query(FAILURE)
        .delete({ where: { id: row.id } })
        .catch((error) => strapi.log.error(`[revalidate] could not delete failure #${row.id}: ${error.message}`));
      strapi.log.info(`[revalidate] recorded failure #${row.id} delivered ${how}: ${JSON.stringify(payload.next)}`);
    } else {
      strapi.log.info(`[revalidate] ${payload.uid} ${JSON.stringify(payload.next)} → ${result.status}`);
    }
    // Only now, the site having expired the pages: see the comment of createRevalidationService.
    const purge = purgeCdn
      ? await within(
          track(() => purgeCdnAfter(payload, result.body)),
          deadline,
        )
      : null;
    return { sent: true, payload, ...result, ...(purge && purge !== LATE ? { purge } : {}) };
  }

  /**
   * After the site accepted a revalidation: purges what it revalidated from the CDN (a takedown:
   * hard; a publish: `soft: true`). Wildcards cannot be purged by URL: they are left out (logged).
   * A failed purge is retried `purgeRetries` times with backoff, then recorded as a failure (the
   * editors' failures page; its retry sends the revalidation and this purge again). Never rejects;
   * null when there is nothing to do.
   */
  async function purgeCdnAfter(payload, answer) {
    if (!payload?.next || !purgeSecret) return null;
    const takedown = payload.next.expire === true;
    const what = takedown ? "takedown" : "publish";
    const revalidated = Array.isArray(answer?.paths) ? answer.paths : (payload.next.fullPaths ?? []);
    const paths = revalidated.filter((path) => typeof path === "string" && !path.endsWith("*"));
    const wildcards = revalidated.filter((path) => typeof path === "string" && path.endsWith("*"));
    const tags = payload.next.tags ?? [];
    if (wildcards.length)
      strapi.log.warn(
        `[cdn-purge] after ${what}: ${wildcards.join(", ")} cannot be purged by URL; purge the CDN by hand if needed`,
      );
    if (paths.length === 0 && tags.length === 0) return null;
    // The site takes at most PURGE_CHUNK paths and tags a request (server/cdn/purge.ts: 1,000 each,
    // and it adds a tag per path): a large move goes as several requests, one after the other.
    let request;
    let result;
    for (let from = 0; from < Math.max(paths.length, tags.length); from += PURGE_CHUNK) {
      const part = { paths: paths.slice(from, from + PURGE_CHUNK), tags: tags.slice(from, from + PURGE_CHUNK) };
      request = {
        ...(part.paths.length ? { paths: part.paths } : {}),
        ...(part.tags.length ? { tags: part.tags } : {}),
        ...(takedown ? {} : { soft: true }),
      };
      result = await purgeOnce(request, what);
      if (result.status !== 200) break;
    }
    const why = [result.body?.error, result.body?.response?.error].filter(Boolean).join(": ") || result.status;
    if (result.status === 200) strapi.log.info(`[cdn-purge] after ${what} ${JSON.stringify(request)} → 200`);
    else if (result.status === 501)
      strapi.log.info(`[cdn-purge] after ${what}: the site has no CDN configured (501); nothing purged`);
    else {
      // The request itself refused (the site's 4xx but 401, a secret an operator may fix, and 429):
      // sending it again would fail again.
      const retryable = !refusedPurge(result);
      strapi.log.error(
        `[cdn-purge] after ${what} ${JSON.stringify(request)} failed: ${why}; recorded${retryable ? ", retried with the failures" : ", not retried"}`,
      );
      await record(payload, {
        status: result.status,
        attempts: purgeRetries + 1,
        retryable,
        error: `CDN purge failed: ${why}`,
      });
    }
    return { request, ...result };
  }

  /** One purge request to the site, retried `purgeRetries` times with backoff unless refused (4xx but 429). */
  async function purgeOnce(request, what) {
    let result;
    for (let attempt = 0; ; attempt += 1) {
      result = await forwardPurge(request, {
        clientUrl,
        secret: purgeSecret,
        timeoutMs: config.purgeTimeoutMs,
        ...(fetch ? { fetchImpl: fetch } : {}),
      });
      if (result.status === 200 || result.status === 501 || refusedPurge(result) || attempt >= purgeRetries) break;
      const delay = client.delayFor(attempt);
      strapi.log.warn(
        `[cdn-purge] after ${what}: attempt ${attempt + 1} failed (${result.body?.error ?? result.status}); retrying in ${delay} ms`,
      );
      await pause(delay);
    }
    return result;
  }

  /**
   * Builds, sends and settles (records a failure; purges a delivered takedown from the CDN,
   * unless `purgeCdn: false`). With `waitMs`: resolves by then at the latest (see the comment of
   * createRevalidationService; `answered: false` when the site had not). Never rejects.
   */
  async function revalidate(input, { retries, purgeCdn = true, waitMs } = {}) {
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
    if (payload.next.expire !== true && purgeCdn && retries === undefined) {
      // A publish: coalesced with the others of its window; settled (and purged) once per batch.
      // Its commit time starts publish_to_visible_seconds (a takedown is not measured).
      payload = { ...payload, committedAt: Date.now() };
      const wait = waitMs ?? (publishWaitMs > 0 ? publishWaitMs : Infinity);
      const answer = await within(batcher.add(payload), wait === Infinity ? Infinity : Date.now() + wait);
      if (answer !== LATE) return { ...answer, payload, batch: answer.payload };
      const error = `the site had not answered after ${wait} ms; still sending`;
      strapi.log.warn(`[revalidate] ${payload.uid}: ${error}`);
      return { sent: true, payload, ok: false, answered: false, error, retryable: true };
    }
    const deadline = waitMs === undefined ? Infinity : Date.now() + waitMs;
    const sending = client.send(payload, retries === undefined ? {} : { retries });
    const result = await within(sending, deadline);
    if (result !== LATE) return settle(payload, result, { purgeCdn, deadline });

    const error = `the site had not answered after ${waitMs} ms; still sending`;
    const row = await record(payload, { status: 0, attempts: 0, retryable: true, error });
    track(async () => settle(payload, await sending, { row, purgeCdn, how: "late" })).catch((failure) =>
      strapi.log.error(`[revalidate] ${failure.stack ?? failure.message}`),
    );
    return { sent: true, payload, ok: false, answered: false, error, retryable: true };
  }

  /**
   * Runs `job` (the revalidation of an editor write, detached from its save) and counts it until
   * it settles: `inFlight()` is how many are being built or sent right now (with their retries).
   * GET /site-cache/failures shows it; a test waits for 0 instead of sleeping.
   */
  function track(job) {
    inFlight += 1;
    return Promise.resolve()
      .then(job)
      .finally(() => {
        inFlight -= 1;
      });
  }

  /** Marks a row whose signature does not verify rejected (never retried again); whether it did. */
  async function refuse(row) {
    try {
      const { count } = await strapi.db.query(FAILURE).updateMany({
        where: { id: row.id, state: row.state },
        data: { state: "rejected", lastError: UNVERIFIED, lastTriedAt: new Date(), sendingUntil: null },
      });
      // count 0: another instance refused it first.
      if (count > 0)
        strapi.log.error(`[revalidate] failure #${row.id} refused, not sent: its signature does not verify`);
      return count > 0;
    } catch (error) {
      strapi.log.error(`[revalidate] could not mark failure #${row.id} rejected: ${error.message}`);
      return false;
    }
  }

  /** Retries the recorded failures (state pending; also unauthorized when includeUnauthorized). */
  async function retryFailures({ includeUnauthorized = false } = {}) {
    if (!enabled()) return { retried: 0, delivered: 0, refused: 0 };
    if (retrying) return retrying;
    retrying = (async () => {
      const states = includeUnauthorized ? ["pending", "unauthorized"] : ["pending"];
      const rows = await strapi.db
        .query(FAILURE)
        .findMany({ where: { state: { $in: states } }, orderBy: { id: "asc" }, limit: 100 });
      let retried = 0;
      let delivered = 0;
      let refused = 0;
      for (const row of rows) {
        // Only what this CMS recorded is sent with the secret: see failure-signature.js.
        if (!signer.verify(row)) {
          if (await refuse(row)) refused += 1;
          continue;
        }
        // Another instance sending it (retry-turns.js): skipped, not counted.
        if (!(await claimFailure(strapi, row, { sendMs: config.timeoutMs }))) continue;
        retried += 1;
        const result = await settle(row.payload, await client.send(row.payload, { retries: 0 }), { row });
        if (result.ok) delivered += 1;
      }
      return { retried, delivered, refused };
    })().finally(() => {
      retrying = null;
    });
    return retrying;
  }

  /** On once the application's bootstrap is done (src/index.js: after the seed, whose writes are not revalidated). */
  function start() {
    ready = true;
    if (!enabled()) {
      logOffOnce();
      return;
    }
    strapi.log.info(`[revalidate] on: ${client.url}; failed revalidations are retried every ${retryIntervalMs} ms`);
    retryFailures({ includeUnauthorized: true }).catch((error) =>
      strapi.log.error(`[revalidate] retry failed: ${error.message}`),
    );
    if (retryIntervalMs > 0) {
      timer = setInterval(async () => {
        // One pass per interval across the instances sharing the database (retry-turns.js).
        if (!(await takeRetryTurn(strapi, { intervalMs: retryIntervalMs }))) return;
        retryFailures().catch((error) => strapi.log.error(`[revalidate] retry failed: ${error.message}`));
      }, retryIntervalMs);
      timer.unref?.();
    }
  }

  function stop() {
    ready = false;
    if (timer) clearInterval(timer);
    timer = null;
  }

  return {
    revalidate,
    retryFailures,
    track,
    // A publish waiting in the batch being collected counts too.
    inFlight: () => inFlight + batcher.pending(),
    start,
    stop,
    isReady: () => ready,
    enabled,
    defaultLocale,
    clientUrl,
    takedownWaitMs,
    /** The editor's publish is answered after its revalidation (and purge), within publishWaitMs. */
    holdsPublishes: publishWaitMs > 0,
    batches: () => batcher.sent(),
  };
}

module.exports = { createRevalidationService, FAILURE, UNVERIFIED };
