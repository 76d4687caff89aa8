"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");

const {
  createClusterLock,
  lockInTransaction,
} = require("../../../../../src/plugins/accounts/server/utils/cluster-lock");

/** Strapi's db with a dialect; `transaction(cb)` records what runs in it and commits (or rolls back on a throw), as Strapi's does. */
function fakeStrapi(client) {
  const events = [];
  const trx = { raw: async (sql, bindings) => events.push(["raw", sql, ...bindings]) };
  const strapi = {
    db: {
      dialect: { client },
      async transaction(cb) {
        events.push(["begin"]);
        try {
          const value = await cb({ trx });
          events.push(["commit"]);
          return value;
        } catch (error) {
          events.push(["rollback"]);
          throw error;
        }
      },
    },
  };
  return { strapi, events, trx };
}

test("SQLite: the in-process lock only, no transaction", async () => {
  const { strapi, events } = fakeStrapi("sqlite");
  const lock = createClusterLock(strapi, "two-factor");
  assert.equal(await lock.run("7", async () => "done"), "done");
  assert.deepEqual(events, []);
  await lockInTransaction(strapi, { raw: () => assert.fail("no lock on SQLite") }, "x");
});

test("PostgreSQL: the task runs in a transaction that first takes the key's advisory lock", async () => {
  const { strapi, events } = fakeStrapi("postgres");
  const lock = createClusterLock(strapi, "two-factor");
  assert.equal(
    await lock.run("7", async () => {
      events.push(["task"]);
      return 42;
    }),
    42,
  );
  assert.deepEqual(events, [
    ["begin"],
    ["raw", "SELECT pg_advisory_xact_lock(hashtextextended(?, 0))", "two-factor:7"],
    ["task"],
    ["commit"],
  ]);
});

test("PostgreSQL: a task that refuses (throws) still commits what it wrote, and its error comes out", async () => {
  const { strapi, events } = fakeStrapi("postgres");
  const lock = createClusterLock(strapi, "two-factor");
  const refusal = new Error("wrong code");
  await assert.rejects(
    lock.run("7", async () => {
      events.push(["write failure count"]);
      throw refusal;
    }),
    (error) => error === refusal,
  );
  assert.deepEqual(
    events.map(([name]) => name),
    ["begin", "raw", "write failure count", "commit"],
  );
});

test("tasks of one key in one process wait for each other; the lock keeps no entry after", async () => {
  const { strapi } = fakeStrapi("postgres");
  const lock = createClusterLock(strapi, "two-factor");
  const order = [];
  let releaseFirst;
  const first = lock.run("7", () => new Promise((resolve) => (releaseFirst = resolve)).then(() => order.push("first")));
  const second = lock.run("7", async () => order.push("second"));
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(lock.size, 1);
  releaseFirst();
  await Promise.all([first, second]);
  assert.deepEqual(order, ["first", "second"]);
  assert.equal(lock.size, 0);
});
