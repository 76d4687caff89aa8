"use strict";

/**
 * One CMS start at a time per PostgreSQL database (docs/decisions/0029-cms-on-postgresql-cluster.md).
 *
 * Strapi's start changes the database without any lock of its own: it syncs the schema to the
 * content types (CREATE TABLE, ALTER TABLE), runs its migrations, creates the roles, settings and
 * API tokens of a fresh database, and this project's bootstrap adds grants and (development) the
 * demo seed. Two instances starting together on one empty database would both create the same
 * tables and rows. So on PostgreSQL each start first takes a session-level advisory lock on its
 * own connection and keeps it until Strapi listens: a second instance waits, then finds the
 * schema in place, the seed's marker written, every grant made, and changes nothing. The lock
 * goes with its connection, so a start that crashes releases it. SQLite is one process: no lock.
 */

/** The advisory lock's key: any fixed number; this one is "cms start" in ASCII. */
const START_LOCK_KEY = 0x636d73207374;
/** After this long without the lock, a line says why the start waits. */
const WAIT_NOTICE_MS = 1_000;

/** The pg client options of Strapi's PostgreSQL connection (config/database.js), or null for another client. */
function postgresConnection(databaseConfig) {
  const connection = databaseConfig?.connection;
  if (connection?.client !== "postgres") return null;
  const { schema: _schema, ...options } = connection.connection ?? {};
  return options;
}

/**
 * Runs `start` holding the start lock when the database is PostgreSQL (else just runs it).
 * `connect(options)` makes a connected client with `query()` and `end()` (default: `pg`'s Client).
 */
async function withStartLock(databaseConfig, start, { connect = connectPg, log = console.log } = {}) {
  const options = postgresConnection(databaseConfig);
  if (!options) return start();
  const client = await connect(options);
  try {
    const notice = setTimeout(
      () => log("[cms] another instance is starting on this database: waiting for it (PostgreSQL advisory lock)"),
      WAIT_NOTICE_MS,
    );
    try {
      await client.query("SELECT pg_advisory_lock($1)", [START_LOCK_KEY]);
    } finally {
      clearTimeout(notice);
    }
    try {
      return await start();
    } finally {
      // A lost connection has released the lock already: a started CMS goes on (logged).
      await client
        .query("SELECT pg_advisory_unlock($1)", [START_LOCK_KEY])
        .catch((error) => log(`[cms] start lock: could not release it (${error.message}); its connection ends now`));
    }
  } finally {
    await client.end().catch(() => {});
  }
}

async function connectPg(options) {
  const { Client } = require("pg");
  const client = new Client(options);
  // A connection dropped during the start (the database restarted) must not crash the CMS: the
  // lock went with it; the start goes on (another instance may now start beside it).
  client.on("error", (error) => console.error(`[cms] start lock: its connection failed (${error.message})`));
  await client.connect();
  return client;
}

module.exports = { withStartLock, postgresConnection, START_LOCK_KEY };
