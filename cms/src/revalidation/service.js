'use strict';

const { createRevalidationClient } = require('./client');
const { buildPayload } = require('./payload');

const FAILURE = 'api::revalidation-failure.revalidation-failure';

const intFromEnv = (env, name, fallback) => {
  const value = Number.parseInt(env[name] ?? '', 10);
  return Number.isFinite(value) && value >= 0 ? value : fallback;
};

/**
 * The revalidation service: `revalidate({ uid, fullPaths?, locale?, tags? })` builds the
 * payload and sends it (client.js: timeout, retries with backoff). A revalidation the front
 * end did not accept is kept in the database (content type "Revalidation failure", visible in
 * the admin's Content Manager) and retried every CMS_REVALIDATE_RETRY_INTERVAL_MS until it is
 * delivered (then the row is deleted). 401 (secret mismatch) and other 4xx rows are kept but
 * not retried periodically; 401 rows are retried once at the next start (the secret may have
 * been fixed in the meantime). CMS_REVALIDATE_SECRET unset: revalidation is off (logged once).
 */
function createRevalidationService(strapi, { env = process.env, fetch, sleep } = {}) {
  const secret = env.CMS_REVALIDATE_SECRET || '';
  const clientUrl = (env.CLIENT_URL || 'http://localhost:3000').replace(/\/+$/, '');
  const client = createRevalidationClient({
    clientUrl,
    secret,
    fetch,
    sleep,
    timeoutMs: intFromEnv(env, 'CMS_REVALIDATE_TIMEOUT_MS', 5_000),
    retries: intFromEnv(env, 'CMS_REVALIDATE_RETRIES', 3),
    baseDelayMs: intFromEnv(env, 'CMS_REVALIDATE_BACKOFF_MS', 500),
    log: strapi.log,
  });
  const retryIntervalMs = intFromEnv(env, 'CMS_REVALIDATE_RETRY_INTERVAL_MS', 30_000);
  let timer = null;
  let retrying = null;
  let loggedOff = false;
  let defaultLocaleCache = { value: null, at: 0 };

  const enabled = () => Boolean(secret);

  function logOffOnce() {
    if (loggedOff) return;
    loggedOff = true;
    strapi.log.warn('[revalidate] CMS_REVALIDATE_SECRET is not set: automatic cache revalidation of the front end is off.');
  }

  async function defaultLocale() {
    if (defaultLocaleCache.value && Date.now() - defaultLocaleCache.at < 60_000) return defaultLocaleCache.value;
    let value = 'en';
    try {
      value = (await strapi.plugin('i18n').service('locales').getDefaultLocale()) || 'en';
    } catch {
      // i18n not ready: keep 'en'
    }
    defaultLocaleCache = { value, at: Date.now() };
    return value;
  }

  async function record(payload, result) {
    const state = result.status === 401 ? 'unauthorized' : result.retryable ? 'pending' : 'rejected';
    try {
      await strapi.db.query(FAILURE).create({
        data: {
          uid: payload.uid,
          payload,
          state,
          attempts: result.attempts,
          lastStatus: result.status || null,
          lastError: String(result.error ?? '').slice(0, 2000),
          lastTriedAt: new Date(),
        },
      });
      strapi.log.error(`[revalidate] not delivered (${result.error ?? result.status}); recorded as a revalidation failure (${state}): ${JSON.stringify(payload)}`);
    } catch (error) {
      // The last resort: the log line must carry everything needed to redo it by hand.
      strapi.log.error(`[revalidate] not delivered and could not be recorded (${error.message}): ${JSON.stringify(payload)}`);
    }
  }

  /** Builds, sends and (on failure) records. Never rejects. */
  async function revalidate(input, { retries } = {}) {
    let payload;
    try {
      payload = buildPayload(input, { defaultLocale: await defaultLocale() });
    } catch (error) {
      strapi.log.error(`[revalidate] bad input ${JSON.stringify(input)}: ${error.message}`);
      return { sent: false, reason: error.message, payload: null };
    }
    if (!payload) return { sent: false, reason: 'nothing to revalidate', payload: null };
    if (!enabled()) {
      logOffOnce();
      return { sent: false, reason: 'CMS_REVALIDATE_SECRET is not set', payload };
    }
    const result = await client.send(payload, retries === undefined ? {} : { retries });
    if (result.ok) strapi.log.info(`[revalidate] ${payload.uid} ${JSON.stringify(payload.next)} → ${result.status}`);
    else await record(payload, result);
    return { sent: true, payload, ...result };
  }

  /** Retries the recorded failures (state pending; also unauthorized when includeUnauthorized). */
  async function retryFailures({ includeUnauthorized = false } = {}) {
    if (!enabled()) return { retried: 0, delivered: 0 };
    if (retrying) return retrying;
    retrying = (async () => {
      const states = includeUnauthorized ? ['pending', 'unauthorized'] : ['pending'];
      const rows = await strapi.db.query(FAILURE).findMany({ where: { state: { $in: states } }, orderBy: { id: 'asc' }, limit: 100 });
      let delivered = 0;
      for (const row of rows) {
        const result = await client.send(row.payload, { retries: 0 });
        if (result.ok) {
          delivered += 1;
          await strapi.db.query(FAILURE).delete({ where: { id: row.id } });
          strapi.log.info(`[revalidate] recorded failure #${row.id} delivered on retry: ${JSON.stringify(row.payload.next)}`);
        } else {
          await strapi.db.query(FAILURE).update({
            where: { id: row.id },
            data: {
              state: result.status === 401 ? 'unauthorized' : result.retryable ? 'pending' : 'rejected',
              attempts: (row.attempts ?? 0) + result.attempts,
              lastStatus: result.status || null,
              lastError: String(result.error ?? '').slice(0, 2000),
              lastTriedAt: new Date(),
            },
          });
        }
      }
      return { retried: rows.length, delivered };
    })().finally(() => {
      retrying = null;
    });
    return retrying;
  }

  function start() {
    if (!enabled()) {
      logOffOnce();
      return;
    }
    strapi.log.info(`[revalidate] on: ${client.url}; failed revalidations are retried every ${retryIntervalMs} ms`);
    retryFailures({ includeUnauthorized: true }).catch((error) => strapi.log.error(`[revalidate] retry failed: ${error.message}`));
    if (retryIntervalMs > 0) {
      timer = setInterval(() => {
        retryFailures().catch((error) => strapi.log.error(`[revalidate] retry failed: ${error.message}`));
      }, retryIntervalMs);
      timer.unref?.();
    }
  }

  function stop() {
    if (timer) clearInterval(timer);
    timer = null;
  }

  return { revalidate, retryFailures, start, stop, enabled, defaultLocale, clientUrl };
}

module.exports = { createRevalidationService, FAILURE };
