"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");

const { writeRetries, MAX_PENDING } = require("../../../src/plugins/site-search/server/services/search/write-retries");

const quiet = { info() {}, warn() {} };

function harness({ failures = 0 } = {}) {
  const calls = { retried: [], prepared: 0, rebuilt: 0 };
  let failing = failures;
  const maybeFail = () => {
    if (failing-- > 0) throw new Error("down");
  };
  const retries = writeRetries({
    retry: async (...args) => {
      maybeFail();
      calls.retried.push(args.join(" "));
    },
    prepare: async () => {
      maybeFail();
      calls.prepared++;
    },
    rebuild: async () => {
      maybeFail();
      calls.rebuilt++;
    },
    intervalMs: 1_000,
    log: quiet,
  });
  return { retries, calls };
}

test("a failed write is retried after the interval, again while the engine fails, once it answers", (t) => {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  const { retries, calls } = harness({ failures: 1 });
  retries.add("api::article.article", "a1", "en");
  retries.add("api::article.article", "a1", "en");
  assert.deepEqual(retries.state(), { pending: 1, prepareDue: false, rebuildDue: false });
  return (async () => {
    t.mock.timers.tick(1_000);
    await new Promise(setImmediate);
    assert.deepEqual(calls.retried, []);
    assert.equal(retries.state().pending, 1);
    t.mock.timers.tick(1_000);
    await new Promise(setImmediate);
    assert.deepEqual(calls.retried, ["api::article.article a1 en"]);
    assert.equal(retries.state().pending, 0);
    retries.stop();
  })();
});

test("the waiting writes are bounded: one more than MAX_PENDING and one rebuild replaces them", async (t) => {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  const { retries, calls } = harness();
  for (let i = 0; i <= MAX_PENDING; i++) retries.add("api::page.page", `p${i}`, null);
  assert.deepEqual(retries.state(), { pending: 0, prepareDue: false, rebuildDue: true });
  retries.add("api::page.page", "later", null);
  assert.equal(retries.state().pending, 0);
  t.mock.timers.tick(1_000);
  await new Promise(setImmediate);
  assert.equal(calls.rebuilt, 1);
  assert.deepEqual(calls.retried, []);
  assert.deepEqual(retries.state(), { pending: 0, prepareDue: false, rebuildDue: false });
});

test("a CMS that started without the engine prepares the index once it answers", async (t) => {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  const { retries, calls } = harness();
  retries.prepareLater();
  t.mock.timers.tick(1_000);
  await new Promise(setImmediate);
  assert.equal(calls.prepared, 1);
  assert.equal(retries.state().prepareDue, false);
});
