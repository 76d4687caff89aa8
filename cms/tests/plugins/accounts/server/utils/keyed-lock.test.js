"use strict";

// Run with `npm test` in cms/ (node:test).
const test = require("node:test");
const assert = require("node:assert/strict");

const { createKeyedLock } = require("../../../../../src/plugins/accounts/server/utils/keyed-lock");

/** A task that records when it starts and ends and finishes when `finish()` is called. */
function controlled(events, name) {
  let finish;
  const done = new Promise((resolve) => (finish = resolve));
  return {
    finish: () => finish(),
    task: async () => {
      events.push(`${name} start`);
      await done;
      events.push(`${name} end`);
      return name;
    },
  };
}

test("tasks with the same key run one after the other, in order", async () => {
  const lock = createKeyedLock();
  const events = [];
  const a = controlled(events, "a");
  const b = controlled(events, "b");
  const first = lock.run("x@example.com", a.task);
  const second = lock.run("x@example.com", b.task);
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(events, ["a start"]);
  b.finish();
  a.finish();
  assert.deepEqual(await Promise.all([first, second]), ["a", "b"]);
  assert.deepEqual(events, ["a start", "a end", "b start", "b end"]);
  assert.equal(lock.size, 0, "no entry is left behind");
});

test("different keys do not wait for each other; a failed task releases its key", async () => {
  const lock = createKeyedLock();
  const events = [];
  const a = controlled(events, "a");
  const running = lock.run("one", a.task);
  assert.equal(await lock.run("two", async () => "other"), "other");
  await assert.rejects(
    lock.run("three", async () => {
      throw new Error("boom");
    }),
    /boom/,
  );
  assert.equal(await lock.run("three", async () => "after"), "after");
  a.finish();
  await running;
  assert.equal(lock.size, 0);
});
