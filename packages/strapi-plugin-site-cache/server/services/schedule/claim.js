"use strict";

/**
 * Finding and claiming the scheduled work that is due (docs/scheduled-publishing.md). The
 * schedule is the draft row's own `publishAt` / `unpublishAt` (one draft row per document and
 * locale): what the editor saved is what runs, and it survives any restart because it is the
 * content itself.
 *
 * "Once, however many CMS instances run": every instance ticks, and each due row is claimed by
 * ONE conditional UPDATE that clears the field only while it still holds a due time
 * (`WHERE id = ? AND publishAt <= now`). The database runs the two instances' UPDATEs of one row
 * one after the other (a row lock on PostgreSQL, the database lock on SQLite); the second finds
 * the field already cleared and changes no row, so only the instance whose update counted acts.
 * An editor who moved the time into the future between the read and the claim wins too.
 */

/** Due rows read per type, field and tick: the rest waits for the next tick (oldest first). */
const DUE_BATCH = 50;

/** `{ publishAt: "publish", unpublishAt: "unpublish" }`: the field and the document action it triggers. */
const ACTIONS = Object.freeze({ publishAt: "publish", unpublishAt: "unpublish" });

/** The draft rows of `uid` whose `field` is due at `now`, oldest first: `{ id, documentId, locale?, at }`. */
async function dueRows(db, uid, field, now, { localized }) {
  const rows = await db.query(uid).findMany({
    where: { publishedAt: null, [field]: { $notNull: true, $lte: now } },
    select: ["id", "documentId", field, ...(localized ? ["locale"] : [])],
    orderBy: [{ [field]: "asc" }, { id: "asc" }],
    limit: DUE_BATCH,
  });
  return rows.map((row) => ({ id: row.id, documentId: row.documentId, locale: row.locale ?? null, at: row[field] }));
}

/** True when this instance's conditional update cleared `field` of the row: the work is its own. */
async function claim(db, uid, field, row, now) {
  const { count } = await db.query(uid).updateMany({
    where: { id: row.id, [field]: { $notNull: true, $lte: now } },
    data: { [field]: null },
  });
  return count === 1;
}

/** Puts a claimed time back (the action failed for a reason that may pass): the next tick tries again. */
async function release(db, uid, field, row) {
  await db.query(uid).updateMany({ where: { id: row.id, [field]: null }, data: { [field]: row.at } });
}

module.exports = { ACTIONS, DUE_BATCH, claim, dueRows, release };
