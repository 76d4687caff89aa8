"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");

const {
  createBatcher,
  mergePayloads,
} = require("../../../../../../../packages/strapi-plugin-site-cache/server/services/revalidation/batch");
const {
  createRevalidationService,
} = require("../../../../../../../packages/strapi-plugin-site-cache/server/services/revalidation/service");
const { fakeStrapi, frontEnd, SERVICE_CONFIG } = require("./stand-ins");

const page = (n, committedAt = 1_000 + n) => ({
  uid: "api::page.page",
  next: { fullPaths: [`/p${n}`], tags: ["cms:api::page.page", `cms:api::page.page:d${n}`] },
  committedAt,
});

/** Timers the test fires by hand: `fire()` runs every timer set so far (the window closing). */
function manualTimers() {
  const pending = new Set();
  return {
    setTimeout: (fn) => {
      const timer = { fn };
      pending.add(timer);
      return timer;
    },
    clearTimeout: (timer) => pending.delete(timer),
    fire() {
      for (const timer of [...pending]) {
        pending.delete(timer);
        timer.fn();
      }
    },
    get count() {
      return pending.size;
    },
  };
}

test("merge: every path and tag once, the earliest commit, the count; the first uid", () => {
  assert.deepEqual(
    mergePayloads([
      page(1, 50),
      page(2, 20),
      { uid: "api::navbar.navbar", next: { tags: ["cms:api::navbar.navbar"] } },
    ]),
    {
      uid: "api::page.page",
      next: {
        fullPaths: ["/p1", "/p2"],
        tags: ["cms:api::page.page", "cms:api::page.page:d1", "cms:api::page.page:d2", "cms:api::navbar.navbar"],
      },
      committedAt: 20,
      batched: 3,
    },
  );
  assert.deepEqual(mergePayloads([page(1, 50)]), page(1, 50));
});

test("50 publishes within the window: one send, and every caller gets its answer", async () => {
  const timers = manualTimers();
  const sent = [];
  const batcher = createBatcher({ timers, send: async (merged) => (sent.push(merged), { ok: true, n: sent.length }) });
  const answers = Array.from({ length: 50 }, (_, n) => batcher.add(page(n)));
  assert.equal(batcher.pending(), 50);
  assert.equal(timers.count, 1, "one window open, re-armed by each payload");
  timers.fire();
  assert.deepEqual(await Promise.all(answers), Array(50).fill({ ok: true, n: 1 }));
  assert.equal(sent.length, 1);
  assert.equal(sent[0].next.fullPaths.length, 50);
  assert.equal(sent[0].next.tags.length, 51);
  assert.equal(sent[0].batched, 50);
  assert.equal(sent[0].committedAt, 1_000);
  assert.equal(batcher.pending(), 0);
  assert.equal(batcher.sent(), 1);
});

test("bounded: a payload that would take the batch past maxItems paths or tags, maxBytes or maxPayloads, starts the next one", async () => {
  const timers = manualTimers();
  const sent = [];
  const batcher = createBatcher({
    timers,
    maxItems: 10,
    maxPayloads: 1_000,
    send: async (merged) => sent.push(merged),
  });
  // Each payload adds one path and one new tag (plus the shared type tag): 10 tags fit 9 payloads.
  for (let n = 0; n < 25; n += 1) void batcher.add(page(n));
  assert.ok(batcher.pending() <= 9);
  timers.fire();
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(
    sent.map((merged) => merged.next.fullPaths.length),
    [9, 9, 7],
  );
  for (const merged of sent) assert.ok(merged.next.tags.length <= 10);

  const bytes = createBatcher({ timers, maxBytes: 120, send: async (merged) => sent.push(merged) });
  sent.length = 0;
  // The first payload counts 55 bytes (a path, the type tag, a document tag), each next one 34: 120 hold 2.
  for (let n = 0; n < 7; n += 1) void bytes.add(page(n + 100));
  timers.fire();
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(sent.length, 4);
  assert.equal(
    sent.reduce((sum, merged) => sum + (merged.batched ?? 1), 0),
    7,
  );
  for (const merged of sent)
    assert.ok([...merged.next.fullPaths, ...merged.next.tags].reduce((sum, item) => sum + item.length + 3, 0) <= 120);

  const many = createBatcher({ timers, maxPayloads: 4, send: async (merged) => sent.push(merged) });
  sent.length = 0;
  // The same path 10 times: the sets stay small, the count of payloads is bounded all the same.
  for (let n = 0; n < 10; n += 1) void many.add(page(1));
  assert.ok(many.pending() <= 4);
  timers.fire();
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(
    sent.map((merged) => merged.batched),
    [4, 4, 2],
  );
});

test("the window closes windowMs after the last payload, at most maxWaitMs after the first (real timers)", async () => {
  const sent = [];
  let release;
  const first = new Promise((resolve) => (release = resolve));
  const batcher = createBatcher({
    windowMs: 50,
    maxWaitMs: 120,
    send: async (merged) => {
      sent.push({ merged, at: Date.now() });
      release();
    },
  });
  const start = Date.now();
  void batcher.add(page(0));
  // Payloads keep coming every 20 ms: the window alone would never close; the bound closes it.
  const feeder = setInterval(() => void batcher.add(page(sent.length + 1)), 20);
  await first;
  clearInterval(feeder);
  const waited = sent[0].at - start;
  assert.ok(waited >= 100 && waited < 400, `sent after ${waited} ms`);
  assert.ok(sent[0].merged.batched >= 3);
});

// ---- The service: publishes batched, one request and one purge; a failed purge retried, then recorded ----

const CONFIG = { ...SERVICE_CONFIG, purgeRetries: 2, batchWindowMs: 20 };

test("the service: 50 publishes at once make one revalidation and one purge", async () => {
  const site = frontEnd();
  const service = createRevalidationService(fakeStrapi(), { config: CONFIG, fetch: site.fetch, sleep: async () => {} });
  const done = Array.from({ length: 50 }, (_, n) =>
    service.revalidate({ uid: "api::page.page", fullPaths: [`/p${n}`] }),
  );
  await site.requests(1);
  assert.equal(site.calls[0].body.batched, 50);
  site.answer(200, { paths: site.calls[0].body.next.fullPaths, tags: site.calls[0].body.next.tags });
  await site.requests(2);
  assert.deepEqual(site.calls[1].body.soft, true);
  assert.equal(site.calls[1].body.paths.length, 50);
  site.answer(200, { purged: true });
  const results = await Promise.all(done);
  assert.ok(results.every((result) => result.ok && result.purge.status === 200));
  assert.equal(site.calls.length, 2);
  assert.equal(service.batches(), 1);
});

test("a purge the site does not take is retried with backoff, then recorded as a failure", async () => {
  const failures = [];
  const site = frontEnd();
  const delays = [];
  const service = createRevalidationService(fakeStrapi(failures), {
    config: CONFIG,
    fetch: site.fetch,
    sleep: async (ms) => void delays.push(ms),
  });
  const done = service.revalidate({ uid: "api::page.page", fullPaths: ["/p1"] });
  await site.requests(1);
  site.answer(200, { paths: ["/p1", "/en/p1"] });
  for (let call = 2; call <= 4; call += 1) {
    await site.requests(call);
    assert.equal(site.calls[call - 1].path, "/api/cdn-purge");
    site.answer(502, { error: "The CDN did not take the purge: 429" });
  }
  const result = await done;
  assert.equal(result.ok, true, "the site did take the revalidation");
  assert.equal(result.purge.status, 502);
  assert.deepEqual(delays, [CONFIG.backoffMs, CONFIG.backoffMs * 2]);
  assert.equal(failures.length, 1);
  assert.equal(failures[0].state, "pending");
  assert.match(
    failures[0].lastError,
    /^CDN purge failed: The front end answered 502: The CDN did not take the purge: 429/,
  );
  assert.deepEqual(failures[0].payload.next.fullPaths, ["/p1"]);
});

test("a publish holds the editor's answer only when a CDN purge follows it, and only with publishWaitMs", () => {
  const service = (config) => createRevalidationService(fakeStrapi(), { config, fetch: frontEnd().fetch });
  assert.equal(service(CONFIG).holdsPublishes, true);
  assert.equal(service({ ...CONFIG, cdnPurgeSecret: "" }).holdsPublishes, false);
  assert.equal(service({ ...CONFIG, publishWaitMs: 0 }).holdsPublishes, false);
});
