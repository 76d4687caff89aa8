"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const { mkdtempSync, rmSync } = require("node:fs");
const { tmpdir } = require("node:os");
const path = require("node:path");

const Database = require("better-sqlite3");

const databaseConfig = require("../../config/database");

// Decision 0037, "SQLite under a burst": every SQLite connection Strapi opens is in WAL mode with
// synchronous = NORMAL, so a commit does not wait for the disk on the event loop.
const env = Object.assign((name, fallback) => ({ DATABASE_CLIENT: "sqlite" })[name] ?? fallback, {
  int: (_name, fallback) => fallback,
  bool: (_name, fallback) => fallback,
});

test("each SQLite connection is opened in WAL mode with synchronous = NORMAL", async () => {
  const { connection } = databaseConfig({ env });
  const dir = mkdtempSync(path.join(tmpdir(), "cms-database-config-"));
  const db = new Database(path.join(dir, "data.db"));
  try {
    await new Promise((resolve, reject) =>
      connection.pool.afterCreate(db, (error) => (error ? reject(error) : resolve())),
    );
    assert.equal(db.pragma("journal_mode", { simple: true }), "wal");
    // 1 is NORMAL (2, FULL, is the default that waited for the disk at each commit).
    assert.equal(db.pragma("synchronous", { simple: true }), 1);
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
