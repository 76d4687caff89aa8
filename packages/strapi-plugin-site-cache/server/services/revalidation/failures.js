"use strict";

/** How many recorded failures the admin's "Site cache" page lists (the most recently tried). */
const FAILURES_SHOWN = 50;

/**
 * One recorded revalidation failure as the admin page shows it: what was asked (`what`: the
 * paths and tags of the payload, and whether it was a takedown), its state and the last error.
 */
function describeFailure(row) {
  const next = row.payload?.next ?? {};
  const what = [...(next.fullPaths ?? []), ...(next.tags ?? [])];
  return {
    id: row.id,
    uid: row.uid,
    state: row.state,
    what: what.join(", ") || "(nothing listed)",
    takedown: next.expire === true,
    attempts: row.attempts ?? 0,
    lastStatus: row.lastStatus ?? null,
    lastError: row.lastError || null,
    lastTriedAt: row.lastTriedAt ?? null,
  };
}

module.exports = { describeFailure, FAILURES_SHOWN };
