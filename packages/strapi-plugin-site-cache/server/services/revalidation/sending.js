"use strict";

const { createBatcher } = require("./batch");

/** What `within` resolves to when the time ran out first. */
const LATE = Symbol("late");

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
 * Sending a built payload to the site and settling its result (service.js says when, and why in
 * this order): a publish joins a batch (batch.js), a takedown or a retry goes at once; a failure
 * is recorded (failure-records.js), a delivery is followed by its CDN purge (purging.js). Callers
 * may bound how long they wait (`waitMs`): past it, the send goes on in the background and
 * settles its own row. `inFlight()` counts what is being sent, purged or batched.
 *
 * `config`: the plugin's (batchWindowMs, batchMaxWaitMs); `publishWaitMs`: the editor's bound on
 * a publish (0: none; service.js decides it).
 */
function createSender(strapi, { config, publishWaitMs, client, failures, purger }) {
  let inFlight = 0;
  const batcher = createBatcher({
    windowMs: config.batchWindowMs,
    maxWaitMs: config.batchMaxWaitMs,
    send: (merged) => track(async () => settle(merged, await client.send(merged))),
  });

  /**
   * Runs `job` (the revalidation of an editor write, detached from its save) and counts it until
   * it settles. GET /site-cache/failures shows the count; a test waits for 0 instead of sleeping.
   */
  function track(job) {
    inFlight += 1;
    return Promise.resolve()
      .then(job)
      .finally(() => {
        inFlight -= 1;
      });
  }

  /**
   * What follows a send's result, for a new revalidation (row null) or a recorded one (row): a
   * failure is recorded (or the row updated); a delivery deletes the row, and is then purged from
   * the CDN (`purgeCdn: false` skips that; waited for until `deadline`, then left running).
   * Never rejects.
   */
  async function settle(payload, result, { row = null, purgeCdn = true, deadline = Infinity, how = "on retry" } = {}) {
    if (!result.ok) {
      if (row) await failures.update(row, result);
      else await failures.record(payload, result);
      return { sent: true, payload, ...result };
    }
    if (row) {
      await failures.remove(row);
      strapi.log.info(`[revalidate] recorded failure #${row.id} delivered ${how}: ${JSON.stringify(payload.next)}`);
    } else {
      strapi.log.info(`[revalidate] ${payload.uid} ${JSON.stringify(payload.next)} → ${result.status}`);
    }
    // Only now, the site having expired the pages (service.js).
    const purge = purgeCdn
      ? await within(
          track(() => purger.purgeAfter(payload, result.body)),
          deadline,
        )
      : null;
    return { sent: true, payload, ...result, ...(purge && purge !== LATE ? { purge } : {}) };
  }

  const lateAnswer = (payload, waitMs) => {
    const error = `the site had not answered after ${waitMs} ms; still sending`;
    return { sent: true, payload, ok: false, answered: false, error, retryable: true };
  };

  /** A publish: coalesced with the others of its window; settled (and purged) once per batch. */
  async function sendPublish(payload, waitMs) {
    // Its commit time starts publish_to_visible_seconds (a takedown is not measured).
    const committed = { ...payload, committedAt: Date.now() };
    const wait = waitMs ?? (publishWaitMs > 0 ? publishWaitMs : Infinity);
    const answer = await within(batcher.add(committed), wait === Infinity ? Infinity : Date.now() + wait);
    if (answer !== LATE) return { ...answer, payload: committed, batch: answer.payload };
    const late = lateAnswer(committed, wait);
    strapi.log.warn(`[revalidate] ${payload.uid}: ${late.error}`);
    return late;
  }

  /**
   * Sends a built payload and settles it. With `waitMs`: resolves by then at the latest (the
   * answer says `answered: false` when the site had not; the row recorded at once as pending is
   * settled by the send's own answer). Never rejects.
   */
  async function send(payload, { retries, purgeCdn = true, waitMs } = {}) {
    if (payload.next.expire !== true && purgeCdn && retries === undefined) return sendPublish(payload, waitMs);
    const deadline = waitMs === undefined ? Infinity : Date.now() + waitMs;
    const sending = client.send(payload, retries === undefined ? {} : { retries });
    const result = await within(sending, deadline);
    if (result !== LATE) return settle(payload, result, { purgeCdn, deadline });

    const late = lateAnswer(payload, waitMs);
    const row = await failures.record(payload, { status: 0, attempts: 0, retryable: true, error: late.error });
    track(async () => settle(payload, await sending, { row, purgeCdn, how: "late" })).catch((failure) =>
      strapi.log.error(`[revalidate] ${failure.stack ?? failure.message}`),
    );
    return late;
  }

  return {
    send,
    settle,
    track,
    // A publish waiting in the batch being collected counts too.
    inFlight: () => inFlight + batcher.pending(),
    batches: () => batcher.sent(),
  };
}

module.exports = { createSender, within, LATE };
