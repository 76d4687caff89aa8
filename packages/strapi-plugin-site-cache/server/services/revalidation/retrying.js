"use strict";

const { claimFailure, takeRetryTurn } = require("./retry-turns");

/**
 * The retry of recorded failures (failure-records.js): every `retryIntervalMs` (0: never), one
 * pass across the instances sharing the database (retry-turns.js), and one at start that also
 * takes the 401 rows (the secret may have been fixed since). A row whose signature does not
 * verify is never sent (marked rejected); a row another instance is sending is skipped. Each row
 * goes once, without the client's retries, and is settled by `settle` (sending.js).
 */
function createFailureRetrier(strapi, { config, client, failures, settle }) {
  const { retryIntervalMs, timeoutMs } = config;
  let timer = null;
  let retrying = null;

  async function pass(states) {
    const rows = await failures.due(states);
    let retried = 0;
    let delivered = 0;
    let refused = 0;
    for (const row of rows) {
      // Only what this CMS recorded is sent with the secret: see failure-signature.js.
      if (!failures.verify(row)) {
        if (await failures.refuse(row)) refused += 1;
        continue;
      }
      // Another instance sending it (retry-turns.js): skipped, not counted.
      if (!(await claimFailure(strapi, row, { sendMs: timeoutMs }))) continue;
      retried += 1;
      const result = await settle(row.payload, await client.send(row.payload, { retries: 0 }), { row });
      if (result.ok) delivered += 1;
    }
    return { retried, delivered, refused };
  }

  /** Retries the recorded failures (state pending; also unauthorized when includeUnauthorized); one pass at a time. */
  function retryFailures({ includeUnauthorized = false } = {}) {
    retrying ??= pass(includeUnauthorized ? ["pending", "unauthorized"] : ["pending"]).finally(() => {
      retrying = null;
    });
    return retrying;
  }

  const logFailure = (error) => strapi.log.error(`[revalidate] retry failed: ${error.message}`);

  /** The pass at start, then the periodic one. */
  function start() {
    retryFailures({ includeUnauthorized: true }).catch(logFailure);
    if (retryIntervalMs <= 0) return;
    timer = setInterval(async () => {
      // One pass per interval across the instances sharing the database (retry-turns.js).
      if (!(await takeRetryTurn(strapi, { intervalMs: retryIntervalMs }))) return;
      retryFailures().catch(logFailure);
    }, retryIntervalMs);
    timer.unref?.();
  }

  function stop() {
    if (timer) clearInterval(timer);
    timer = null;
  }

  return { retryFailures, start, stop };
}

module.exports = { createFailureRetrier };
