"use strict";

const { createKeyedLock } = require("./keyed-lock");

/**
 * Read-decide-write sections that must not overlap for one key (a user's second-factor checks,
 * one email's OAuth syncs, one email-change link), on every CMS instance that shares the
 * database (docs/decisions/0029-cms-on-postgresql-cluster.md).
 *
 * - In one process: keyed-lock.js, tasks of a key one after the other. On SQLite that is all
 *   there is (one process owns the file).
 * - On PostgreSQL, several instances: a transaction-level advisory lock on the key's hash as well
 *   (`pg_advisory_xact_lock`), taken at the start of a transaction and released by its end. The
 *   local lock in front means one instance holds or waits for a key's database lock with one
 *   connection at most.
 */

const isPostgres = (strapi) => strapi.db?.dialect?.client === "postgres";

/**
 * Inside a transaction (`trx`, Strapi's `strapi.db.transaction(({ trx }) => ...)`): waits for and
 * takes the lock of `name` until the transaction ends. Nothing on SQLite.
 */
async function lockInTransaction(strapi, trx, name) {
  if (!isPostgres(strapi)) return;
  await trx.raw("SELECT pg_advisory_xact_lock(hashtextextended(?, 0))", [name]);
}

/**
 * `run(key, task)` runs task alone for its key across instances. On PostgreSQL the task runs in
 * a transaction holding the key's lock, and every query it makes through Strapi joins that
 * transaction. The transaction commits also when the task throws: what the task wrote before
 * refusing (a failed code's count) is kept, as it is without the lock.
 */
function createClusterLock(strapi, namespace) {
  const local = createKeyedLock();

  async function underDatabaseLock(name, task) {
    let outcome;
    await strapi.db.transaction(async ({ trx }) => {
      await lockInTransaction(strapi, trx, name);
      try {
        outcome = { value: await task() };
      } catch (error) {
        outcome = { error };
      }
    });
    if ("error" in outcome) throw outcome.error;
    return outcome.value;
  }

  return {
    /** @template T @param {string} key @param {() => Promise<T>} task @returns {Promise<T>} */
    run(key, task) {
      return local.run(key, () => (isPostgres(strapi) ? underDatabaseLock(`${namespace}:${key}`, task) : task()));
    },
    /** How many keys have a task running or waiting in this process (for tests). */
    get size() {
      return local.size;
    },
  };
}

module.exports = { createClusterLock, lockInTransaction, isPostgres };
