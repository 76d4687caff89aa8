"use strict";

/**
 * The retry of recorded revalidation failures when several CMS instances share the database
 * (docs/decisions/0029-cms-on-postgresql-cluster.md): each instance has its timer (retrying.js),
 * but the failures are retried once per interval, not once per instance, and a failure is sent
 * by one instance at a time. Both through conditional updates, which work alike on SQLite and
 * PostgreSQL:
 *
 * - `takeRetryTurn`: one periodic pass per interval in all. A row of Strapi's core store holds
 *   when the last pass began; an instance's tick runs a pass only when that is at least
 *   TURN_SHARE of an interval ago AND its update from the time it read to now changes a row
 *   (a second instance reading the same time then changes none). With one instance nothing
 *   changes: its ticks are an interval apart.
 * - `claimFailure`: before a failure is sent, one conditional update claims it: its attempt count
 *   goes from the value read to one more, and `sendingUntil` (no claim, or an expired one) to the
 *   end of the send's time (its timeout) and a margin. Passes that overlap (the one each start
 *   makes, an admin's "retry now", a long one) skip a failure another instance is sending, or
 *   has tried since they read it. The settle after the send writes the same count (failure-records.js:
 *   the row's attempts read + 1) and clears `sendingUntil`; an instance that died sending leaves
 *   a claim that expires.
 *
 * The times are the instances' clocks (kept in step by NTP, as the two-factor lock's are).
 */

const FAILURE = "plugin::site-cache.revalidation-failure";
const STORE = "strapi::core-store";
const TURN_KEY = "plugin_site-cache_retry-turn";
/** A tick within this share of an interval after the last pass began does not start another. */
const TURN_SHARE = 0.9;

/** Whether this instance's tick runs the periodic pass now (see above). Never rejects: false on error. */
async function takeRetryTurn(strapi, { intervalMs, nowMs = Date.now() }) {
  try {
    const store = strapi.db.query(STORE);
    // The oldest row of the key: should two first ticks both create one, the later row is ignored.
    const find = () => store.findOne({ where: { key: TURN_KEY }, orderBy: { id: "asc" } });
    let row = await find();
    if (!row) {
      await store.create({ data: { key: TURN_KEY, value: JSON.stringify({ at: 0 }), type: "object" } });
      row = await find();
    }
    const last = Number(safeParse(row.value)?.at) || 0;
    if (nowMs - last < intervalMs * TURN_SHARE) return false;
    const { count } = await store.updateMany({
      where: { id: row.id, value: row.value },
      data: { value: JSON.stringify({ at: nowMs }) },
    });
    return count > 0;
  } catch (error) {
    strapi.log.error(`[revalidate] could not take the retry turn: ${error.message}`);
    return false;
  }
}

/** Beyond the send's own timeout: the settle's write after it. */
const CLAIM_MARGIN_MS = 2_000;

/** Whether this instance may send the recorded failure `row` now (see above); `sendMs`: one send's timeout. */
async function claimFailure(strapi, row, { sendMs, nowMs = Date.now() }) {
  const attempts = Number.isInteger(row.attempts) ? row.attempts : 0;
  const { count } = await strapi.db.query(FAILURE).updateMany({
    where: {
      id: row.id,
      attempts: Number.isInteger(row.attempts) ? row.attempts : null,
      $or: [{ sendingUntil: null }, { sendingUntil: { $lt: new Date(nowMs) } }],
    },
    data: {
      attempts: attempts + 1,
      lastTriedAt: new Date(nowMs),
      sendingUntil: new Date(nowMs + sendMs + CLAIM_MARGIN_MS),
    },
  });
  return count > 0;
}

function safeParse(text) {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

module.exports = { takeRetryTurn, claimFailure, TURN_KEY, TURN_SHARE, CLAIM_MARGIN_MS };
