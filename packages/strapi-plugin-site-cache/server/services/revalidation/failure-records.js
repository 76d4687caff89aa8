"use strict";

const FAILURE = "plugin::site-cache.revalidation-failure";
/** Why the retry refused a recorded failure (failure-signature.js): shown on the failures page. */
const UNVERIFIED =
  "Not sent: its signature does not verify, so the CMS did not record it as it is (written by hand or changed since; or recorded under other APP_KEYS). Revalidate by hand if it is needed.";

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

/**
 * The rows of "Revalidation failure" (hidden from the Content Manager; the "Site cache" page lists
 * them): a revalidation or purge the site did not take, recorded signed (failure-signature.js) so
 * that only what this CMS wrote is ever sent again with the secret. None of these rejects: a
 * database error is logged, with the payload when nothing else keeps it.
 */
function createFailureRecords(strapi, signer) {
  const rows = () => strapi.db.query(FAILURE);

  /** Records a failure: the new row, or null when it could not be written (logged). */
  async function record(payload, result) {
    try {
      const data = {
        uid: payload.uid,
        payload,
        signature: signer.sign(payload.uid, payload),
        ...failureFields(result),
      };
      const row = await rows().create({ data });
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

  /** A recorded failure sent again and refused again: its row tells the new result. */
  async function update(row, result) {
    await rows()
      .update({ where: { id: row.id }, data: failureFields(result, row.attempts ?? 0) })
      .catch((error) => strapi.log.error(`[revalidate] could not update failure #${row.id}: ${error.message}`));
  }

  /** A recorded failure delivered: its row goes. */
  async function remove(row) {
    await rows()
      .delete({ where: { id: row.id } })
      .catch((error) => strapi.log.error(`[revalidate] could not delete failure #${row.id}: ${error.message}`));
  }

  /** Marks a row whose signature does not verify rejected (never retried again); whether it did. */
  async function refuse(row) {
    try {
      const { count } = await rows().updateMany({
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

  /** The rows due for a retry (`states`), oldest first, 100 at a time. */
  const due = (states) => rows().findMany({ where: { state: { $in: states } }, orderBy: { id: "asc" }, limit: 100 });

  return { record, update, remove, refuse, due, verify: (row) => signer.verify(row) };
}

module.exports = { createFailureRecords, FAILURE, UNVERIFIED };
