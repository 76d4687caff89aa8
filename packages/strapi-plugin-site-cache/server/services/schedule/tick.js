"use strict";

const { ACTIONS, claim, dueRows, release } = require("./claim");
const { runScheduled } = require("./run-context");

/**
 * One pass of the scheduler over every type whose declaration says `schedule: true`: each due
 * `publishAt` publishes the draft, each due `unpublishAt` unpublishes the document, in the row's
 * locale, through Strapi's document service, so everything a publish by hand does follows (the
 * site-cache revalidation, the page hierarchy, an article's publishDate, which is the scheduled
 * time: run-context.js). Only the work this instance claimed (claim.js) is done.
 *
 * A publish Strapi refuses (a ValidationError: a required field left empty) cannot succeed at the
 * next tick either: logged as an error, the schedule stays cleared (the admin shows the document
 * as a draft without a schedule). Any other failure (the database busy) puts the time back; the
 * next tick tries again.
 *
 * `ctx`: `{ db, documents, declarations, now, log }` (Strapi's, or a unit test's fakes).
 * Returns what it did: `[{ uid, documentId, locale, action, at, outcome }]`.
 */
async function runTick({ db, documents, declarations, now, log }) {
  const done = [];
  for (const declaration of declarations) {
    if (!declaration.schedule) continue;
    for (const [field, action] of Object.entries(ACTIONS)) {
      const rows = await dueRows(db, declaration.uid, field, now, declaration);
      for (const row of rows) {
        if (!(await claim(db, declaration.uid, field, row, now))) continue;
        const outcome = await act({ db, documents, log }, declaration, field, action, row);
        done.push({
          uid: declaration.uid,
          documentId: row.documentId,
          locale: row.locale,
          action,
          at: row.at,
          outcome,
        });
      }
    }
  }
  return done;
}

const describe = (uid, row) => `${uid} ${row.documentId}${row.locale ? ` (${row.locale})` : ""}`;

async function act({ db, documents, log }, declaration, field, action, row) {
  const { uid, localized } = declaration;
  const params = { documentId: row.documentId, ...(localized && row.locale ? { locale: row.locale } : {}) };
  const due = new Date(row.at).toISOString();
  try {
    if (action === "unpublish" && !(await isPublished(db, uid, params))) {
      log.info(`[schedule] ${describe(uid, row)}: unpublish due ${due}, but it is not published`);
      return "not-published";
    }
    await runScheduled(new Date(row.at), () => documents(uid)[action](params));
    log.info(`[schedule] ${action}ed ${describe(uid, row)}, due ${due}`);
    return action === "publish" ? "published" : "unpublished";
  } catch (error) {
    if (error?.name === "ValidationError") {
      log.error(
        `[schedule] could not ${action} ${describe(uid, row)} (due ${due}), schedule dropped: ${error.message}`,
      );
      return "refused";
    }
    log.warn(`[schedule] could not ${action} ${describe(uid, row)} (due ${due}), next tick retries: ${error?.message}`);
    await release(db, uid, field, row);
    return "retry";
  }
}

async function isPublished(db, uid, { documentId, locale }) {
  const row = await db.query(uid).findOne({
    where: { documentId, publishedAt: { $notNull: true }, ...(locale ? { locale } : {}) },
    select: ["id"],
  });
  return Boolean(row);
}

module.exports = { runTick };
