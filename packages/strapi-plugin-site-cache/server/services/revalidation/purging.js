"use strict";

const { MAX_PURGE_PATHS } = require("@cms-site/cache-tags");

const { forwardPurge } = require("../cdn-purge/forward");

/**
 * Paths and tags per CDN purge request to the site: it takes MAX_TAGS of each (server/cdn/purge.ts)
 * and adds a tag per path, so MAX_PURGE_PATHS (500) + 500 stay within its tags too.
 */
const PURGE_CHUNK = MAX_PURGE_PATHS;
/** The site refused the purge request itself (its 4xx but 401 and 429): no retry would be taken. */
const refusedPurge = ({ siteStatus }) =>
  siteStatus >= 400 && siteStatus < 500 && siteStatus !== 401 && siteStatus !== 429;

/**
 * The CDN purge that follows a revalidation the site accepted (decision 0028; the order, site
 * first, is explained in service.js): the site's POST /api/cdn-purge with CMS_CDN_PURGE_SECRET.
 * `config`: the plugin's (cdnPurgeSecret, purgeTimeoutMs, purgeRetries, clientUrl); `delayFor`:
 * the revalidation client's backoff; `record`: failure-records.js's, for a purge that failed.
 */
function createCdnPurger(strapi, { config, fetch, pause, delayFor, record }) {
  const { clientUrl, cdnPurgeSecret: secret, purgeTimeoutMs, purgeRetries } = config;

  /** One purge request to the site, retried `purgeRetries` times with backoff unless refused (4xx but 429). */
  async function purgeOnce(request, what) {
    let result;
    for (let attempt = 0; ; attempt += 1) {
      result = await forwardPurge(request, {
        clientUrl,
        secret,
        timeoutMs: purgeTimeoutMs,
        ...(fetch ? { fetchImpl: fetch } : {}),
      });
      if (result.status === 200 || result.status === 501 || refusedPurge(result) || attempt >= purgeRetries) break;
      const delay = delayFor(attempt);
      strapi.log.warn(
        `[cdn-purge] after ${what}: attempt ${attempt + 1} failed (${result.body?.error ?? result.status}); retrying in ${delay} ms`,
      );
      await pause(delay);
    }
    return result;
  }

  /**
   * Purges what the site revalidated (`answer.paths`, else the payload's) and the payload's tags:
   * a takedown hard, a publish `soft: true`. Wildcards cannot be purged by URL: they are left out
   * (logged). A purge still failing after its retries is recorded as a failure (the editors'
   * failures page; its retry sends the revalidation and this purge again). Never rejects; null
   * when there is nothing to do (no purge secret, nothing purgeable).
   */
  async function purgeAfter(payload, answer) {
    if (!payload?.next || !secret) return null;
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
    // A large move goes as several requests of PURGE_CHUNK, one after the other.
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

  return { purgeAfter };
}

module.exports = { createCdnPurger, PURGE_CHUNK };
