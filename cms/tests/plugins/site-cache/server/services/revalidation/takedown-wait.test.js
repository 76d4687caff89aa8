"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");

const {
  createRevalidationService,
} = require("../../../../../../../packages/strapi-plugin-site-cache/server/services/revalidation/service");
const {
  answerAfterHeldWork,
  holdAnswerUntil,
} = require("../../../../../../../packages/strapi-plugin-site-cache/server/middlewares/hold-answer");
const {
  firstPublish,
} = require("../../../../../../../packages/strapi-plugin-site-cache/server/services/revalidation/document-middleware");
const { fakeStrapi, frontEnd, SERVICE_CONFIG } = require("./stand-ins");

// An editor's takedown is answered once the site has answered it (decision 0010): the service's
// bounded wait (`waitMs`), and the Koa middleware that holds the editor's answer for it.

const CONFIG = { ...SERVICE_CONFIG };
const TAKEDOWN = { uid: "api::redirect.redirect", fullPaths: ["/en/old"], expire: true };
const PAYLOAD = { uid: "api::redirect.redirect", next: { fullPaths: ["/en/old"], expire: true } };

/** Whether `promise` has settled, after every callback already queued has run. */
async function isSettled(promise) {
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  await new Promise((resolve) => setImmediate(resolve));
  return settled;
}

test("the takedown wait is the plugin's takedownWaitMs, 3000 ms by default", () => {
  assert.equal(createRevalidationService(fakeStrapi(), { config: CONFIG }).takedownWaitMs, 3000);
  const config = { ...CONFIG, takedownWaitMs: 500 };
  assert.equal(createRevalidationService(fakeStrapi(), { config }).takedownWaitMs, 500);
});

test("waitMs: resolves only once the site has answered and the CDN purge that follows is done", async () => {
  const failures = [];
  const site = frontEnd();
  const service = createRevalidationService(fakeStrapi(failures), { config: CONFIG, fetch: site.fetch });
  const done = service.revalidate(TAKEDOWN, { waitMs: 60_000 });
  await site.requests(1);
  assert.equal(await isSettled(done), false, "answered before the site had");
  site.answer(200, { paths: ["/en/old", "/old"] });
  await site.requests(2);
  assert.equal(site.calls[1].path, "/api/cdn-purge");
  assert.equal(await isSettled(done), false, "answered before the purge was done");
  site.answer(200, { purged: true });
  const result = await done;
  assert.equal(result.ok, true);
  assert.equal(result.purge.status, 200);
  assert.deepEqual(failures, []);
});

test("a site that does not answer in time: resolves at the bound, recorded as pending at once; its late 200 removes the row and purges", async () => {
  const failures = [];
  const strapi = fakeStrapi(failures);
  const site = frontEnd();
  const service = createRevalidationService(strapi, { config: CONFIG, fetch: site.fetch });
  const result = await service.revalidate(TAKEDOWN, { waitMs: 20 });
  assert.deepEqual(result, {
    sent: true,
    payload: PAYLOAD,
    ok: false,
    answered: false,
    error: "the site had not answered after 20 ms; still sending",
    retryable: true,
  });
  assert.equal(failures.length, 1);
  assert.deepEqual(failures[0].payload, PAYLOAD);
  assert.equal(failures[0].state, "pending");
  assert.equal(failures[0].lastError, "the site had not answered after 20 ms; still sending");
  assert.equal(service.inFlight(), 1, "still sending, and counted");

  const removed = strapi.nextWrite();
  site.answer(200, { paths: ["/en/old", "/old"] });
  await removed;
  assert.deepEqual(failures, []);
  await site.requests(2);
  assert.deepEqual(site.calls[1].body, { paths: ["/en/old", "/old"] });
  site.answer(200, { purged: true });
});

test("a site that never answers: the recorded row takes the client's final failure; one row, not two", async () => {
  const failures = [];
  const strapi = fakeStrapi(failures);
  const site = frontEnd();
  const config = { ...CONFIG, timeoutMs: 100 };
  const service = createRevalidationService(strapi, { config, fetch: site.fetch });
  const result = await service.revalidate(TAKEDOWN, { waitMs: 20 });
  assert.equal(result.answered, false);
  assert.equal(failures.length, 1);
  await strapi.nextWrite(); // the client gives up after 100 ms: the row is updated
  assert.equal(failures.length, 1);
  assert.equal(failures[0].state, "pending");
  assert.equal(failures[0].attempts, 1);
  assert.equal(failures[0].lastError, "timed out after 100 ms");
});

test("a site that answers, but the purge hangs: resolves at the bound, nothing recorded, the purge goes on", async () => {
  const failures = [];
  const site = frontEnd();
  const service = createRevalidationService(fakeStrapi(failures), { config: CONFIG, fetch: site.fetch });
  const done = service.revalidate(TAKEDOWN, { waitMs: 50 });
  await site.requests(1);
  site.answer(200, { paths: ["/en/old"] });
  await site.requests(2);
  const result = await done;
  assert.equal(result.ok, true);
  assert.equal(result.purge, undefined);
  assert.deepEqual(failures, []);
  assert.equal(service.inFlight(), 1, "the purge, still counted");
  site.answer(200, { purged: true });
});

test("the Koa middleware answers a request once what it held has settled; a hold outside a request holds nothing", async () => {
  holdAnswerUntil(new Promise(() => {})); // no request: ignored (would hang the test otherwise)
  let release;
  const work = new Promise((resolve) => (release = resolve));
  const request = answerAfterHeldWork({}, async () => {
    // As the document middleware's commit callback does: a few asynchronous steps into the request.
    await new Promise((resolve) => setImmediate(resolve));
    holdAnswerUntil(work);
  });
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(await isSettled(request), false, "answered before the held work had settled");
  release();
  await request;

  // A request that fails still waits for what it held (its commit may have happened).
  let releaseFailed;
  const failed = answerAfterHeldWork({}, async () => {
    holdAnswerUntil(new Promise((resolve) => (releaseFailed = resolve)));
    throw new Error("the controller failed after the commit");
  });
  assert.equal(await isSettled(failed), false);
  releaseFailed();
  await assert.rejects(failed, /after the commit/);
});

test("a first publish is held like a takedown (its address may have a cached 404); a later publish is not", () => {
  const pages = { draftAndPublish: true };
  const categories = { draftAndPublish: false };
  const none = { rows: [] };
  const published = { rows: [{ documentId: "d1", locale: "en" }] };
  assert.equal(firstPublish("publish", {}, pages, none), true);
  assert.equal(firstPublish("create", { status: "published" }, pages, none), true);
  assert.equal(firstPublish("create", {}, categories, none), true);
  assert.equal(firstPublish("publish", {}, pages, published), false, "a republish: no new address");
  assert.equal(firstPublish("update", {}, pages, none), false, "a draft save: nothing visible");
  assert.equal(firstPublish("update", {}, categories, none), false);
  assert.equal(firstPublish("publish", {}, pages, null), false, "rows not read: not held");
});
