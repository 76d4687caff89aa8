"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");

const { withStartLock, postgresConnection, START_LOCK_KEY } = require("../../scripts/start-lock");

const postgresConfig = {
  connection: {
    client: "postgres",
    connection: { connectionString: "postgres://x@h/db", ssl: false, schema: "public" },
  },
};

function fakeClient(events) {
  return async (options) => {
    events.push(["connect", options]);
    return {
      query: async (sql, values) => events.push([sql, ...values]),
      end: async () => events.push(["end"]),
    };
  };
}

test("SQLite: the start runs as is, no connection", async () => {
  const events = [];
  const config = { connection: { client: "sqlite", connection: { filename: "x.db" } } };
  assert.equal(await withStartLock(config, async () => "started", { connect: fakeClient(events) }), "started");
  assert.deepEqual(events, []);
});

test("PostgreSQL: lock, start, unlock, disconnect, in that order (pg's options without Strapi's schema)", async () => {
  const events = [];
  const start = async () => {
    events.push(["start"]);
    return "started";
  };
  assert.equal(await withStartLock(postgresConfig, start, { connect: fakeClient(events) }), "started");
  assert.deepEqual(events, [
    ["connect", { connectionString: "postgres://x@h/db", ssl: false }],
    ["SELECT pg_advisory_lock($1)", START_LOCK_KEY],
    ["start"],
    ["SELECT pg_advisory_unlock($1)", START_LOCK_KEY],
    ["end"],
  ]);
});

test("PostgreSQL: a start that fails still unlocks and disconnects; its error comes out", async () => {
  const events = [];
  const failure = new Error("schema sync failed");
  await assert.rejects(
    withStartLock(postgresConfig, async () => Promise.reject(failure), { connect: fakeClient(events) }),
    (error) => error === failure,
  );
  assert.deepEqual(
    events.slice(-2).map(([what]) => what),
    ["SELECT pg_advisory_unlock($1)", "end"],
  );
});

test("PostgreSQL: a started CMS goes on when the unlock fails (a lost connection released the lock already)", async () => {
  const events = [];
  const lines = [];
  const connect = async (options) => {
    const client = await fakeClient(events)(options);
    return {
      ...client,
      query: async (sql, values) => {
        if (sql.includes("unlock")) throw new Error("Connection terminated unexpectedly");
        return client.query(sql, values);
      },
      end: async () => {
        events.push(["end"]);
        throw new Error("already closed");
      },
    };
  };
  const started = await withStartLock(postgresConfig, async () => "started", {
    connect,
    log: (line) => lines.push(line),
  });
  assert.equal(started, "started");
  assert.match(lines.join("\n"), /start lock: could not release it \(Connection terminated unexpectedly\)/);
  assert.deepEqual(events.at(-1), ["end"]);
});

test("postgresConnection: null for another client", () => {
  assert.equal(postgresConnection({ connection: { client: "sqlite" } }), null);
  assert.equal(postgresConnection(undefined), null);
});
