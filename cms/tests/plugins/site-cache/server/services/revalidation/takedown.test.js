"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");

const {
  buildPayload,
  removesEntry,
} = require("../../../../../../../packages/strapi-plugin-site-cache/server/services/revalidation/payload");
const {
  validateManualBody,
} = require("../../../../../../../packages/strapi-plugin-site-cache/server/controllers/validation/manual-revalidation");
const {
  createRevalidationService,
} = require("../../../../../../../packages/strapi-plugin-site-cache/server/services/revalidation/service");
const { fakeStrapi, frontEnd, SERVICE_CONFIG } = require("./stand-ins");

test("takedowns (unpublish, delete) are the actions that expire", () => {
  assert.equal(removesEntry("unpublish"), true);
  assert.equal(removesEntry("delete"), true);
  for (const action of ["publish", "update", "create", "discardDraft"]) assert.equal(removesEntry(action), false);
});

test("payload: expire: true is sent as is; anything else is left out (stale-while-revalidate)", () => {
  const input = { uid: "api::redirect.redirect", fullPaths: ["/en/old"] };
  assert.deepEqual(buildPayload({ ...input, expire: true }, { defaultLocale: "en" }).next, {
    fullPaths: ["/en/old"],
    expire: true,
  });
  for (const expire of [undefined, false, "true", 1]) {
    assert.equal("expire" in buildPayload({ ...input, expire }, { defaultLocale: "en" }).next, false, String(expire));
  }
  assert.deepEqual(
    buildPayload({ uid: "api::navbar.navbar", tags: ["cms:api::navbar.navbar"], expire: true }, { defaultLocale: "en" })
      .next,
    {
      tags: ["cms:api::navbar.navbar"],
      expire: true,
    },
  );
  // Nothing to revalidate stays nothing, expire or not.
  assert.equal(buildPayload({ uid: "api::page.page", fullPaths: [], expire: true }, { defaultLocale: "en" }), null);
});

test("manual body: expire is optional, a boolean, with paths or with tags", () => {
  assert.deepEqual(
    validateManualBody({ fullPaths: ["/careers"], expire: true }, { defaultUid: "api::page.page" }).value,
    {
      fullPaths: ["/careers"],
      expire: true,
      uid: "api::page.page",
    },
  );
  assert.deepEqual(validateManualBody({ tags: ["cms:api::footer.footer"], expire: false }).value, {
    tags: ["cms:api::footer.footer"],
    expire: false,
    uid: "api::footer.footer",
  });
  assert.equal(validateManualBody({ fullPaths: ["/careers"], uid: "api::page.page" }).value.expire, undefined);
  const bad = validateManualBody({ fullPaths: ["/careers"], expire: "yes" }).errors;
  assert.deepEqual(bad, [{ path: ["expire"], message: "must be true or false" }]);
});

// ---- The service: revalidate the site first, then purge the CDN ----

const CONFIG = { ...SERVICE_CONFIG };

test("a takedown: the CDN purge is sent only after the site answered 200, for the paths the site expired", async () => {
  const site = frontEnd();
  const service = createRevalidationService(fakeStrapi(), { config: CONFIG, fetch: site.fetch, sleep: async () => {} });
  const done = service.revalidate({ uid: "api::redirect.redirect", fullPaths: ["/en/old-careers"], expire: true });
  await site.requests(1);
  assert.deepEqual(site.calls[0], {
    path: "/api/cms-revalidate",
    body: { uid: "api::redirect.redirect", next: { fullPaths: ["/en/old-careers"], expire: true } },
    authorization: "Bearer revalidate-secret",
  });
  site.answer(200, { revalidated: true, paths: ["/en/old-careers", "/old-careers"], tags: [], expire: true });
  await site.requests(2);
  assert.equal(site.answersBefore[1], 1); // the purge was asked for once the site had answered, not before
  assert.deepEqual(site.calls[1], {
    path: "/api/cdn-purge",
    body: { paths: ["/en/old-careers", "/old-careers"] },
    authorization: "Bearer purge-secret",
  });
  site.answer(200, { purged: true, provider: "http", requests: ["PURGE /en/old-careers", "PURGE /old-careers"] });
  const result = await done;
  assert.equal(result.ok, true);
  assert.equal(result.purge.status, 200);
});

test("a takedown by tag purges the tag; wildcards are left out of the purge", async () => {
  const site = frontEnd();
  const service = createRevalidationService(fakeStrapi(), { config: CONFIG, fetch: site.fetch });
  const done = service.revalidate({
    uid: "api::redirect.redirect",
    fullPaths: ["/jobs/*", "/gone"],
    tags: ["cms:api::navbar.navbar"],
    expire: true,
  });
  await site.requests(1);
  site.answer(200, { paths: ["/en/jobs/*", "/jobs/*", "/en/gone", "/gone"] });
  await site.requests(2);
  assert.deepEqual(site.calls[1].body, { paths: ["/en/gone", "/gone"], tags: ["cms:api::navbar.navbar"] });
  site.answer(200, { purged: true });
  await done;
});

test("a publish is purged too, softly, after the site's 200; no purge without CMS_CDN_PURGE_SECRET or when asked not to", async () => {
  const site = frontEnd();
  const service = createRevalidationService(fakeStrapi(), { config: CONFIG, fetch: site.fetch });
  const done = service.revalidate({ uid: "api::redirect.redirect", fullPaths: ["/en/old"] });
  await site.requests(1);
  assert.equal(typeof site.calls[0].body.committedAt, "number");
  site.answer(200, { paths: ["/en/old", "/old"] });
  await site.requests(2);
  assert.equal(site.answersBefore[1], 1);
  assert.deepEqual(site.calls[1].body, { paths: ["/en/old", "/old"], soft: true });
  site.answer(200, { purged: true });
  assert.equal((await done).purge.status, 200);

  for (const [config, input, options] of [
    [{ ...CONFIG, cdnPurgeSecret: "" }, { uid: "api::redirect.redirect", fullPaths: ["/en/old"] }, {}],
    [{ ...CONFIG, cdnPurgeSecret: "" }, { uid: "api::redirect.redirect", fullPaths: ["/en/old"], expire: true }, {}],
    [CONFIG, { uid: "api::redirect.redirect", fullPaths: ["/en/old"], expire: true }, { purgeCdn: false }],
    [CONFIG, { uid: "api::redirect.redirect", fullPaths: ["/en/old"] }, { purgeCdn: false }],
  ]) {
    const site = frontEnd();
    const service = createRevalidationService(fakeStrapi(), { config, fetch: site.fetch });
    const done = service.revalidate(input, options);
    await site.requests(1);
    site.answer(200, { paths: ["/en/old", "/old"] });
    const result = await done;
    assert.equal(result.ok, true);
    assert.equal(result.purge, undefined);
    assert.deepEqual(
      site.calls.map((call) => call.path),
      ["/api/cms-revalidate"],
    );
  }
});

test("a takedown the site did not accept is not purged; it is purged once a retry delivers it", async () => {
  const failures = [];
  const site = frontEnd();
  const service = createRevalidationService(fakeStrapi(failures), {
    config: CONFIG,
    fetch: site.fetch,
    sleep: async () => {},
  });
  const done = service.revalidate({ uid: "api::redirect.redirect", fullPaths: ["/en/old"], expire: true });
  await site.requests(1);
  site.answer(503);
  const result = await done;
  assert.equal(result.ok, false);
  assert.equal(failures.length, 1);
  assert.deepEqual(
    site.calls.map((call) => call.path),
    ["/api/cms-revalidate"],
  );

  const retried = service.retryFailures();
  await site.requests(2);
  assert.deepEqual(site.calls[1].body, {
    uid: "api::redirect.redirect",
    next: { fullPaths: ["/en/old"], expire: true },
  });
  site.answer(200, { paths: ["/en/old", "/old"] });
  await site.requests(3);
  assert.equal(site.answersBefore[2], 2); // after the retry's answer
  assert.deepEqual(site.calls[2], {
    path: "/api/cdn-purge",
    body: { paths: ["/en/old", "/old"] },
    authorization: "Bearer purge-secret",
  });
  site.answer(501, { error: "No CDN" });
  assert.deepEqual(await retried, { retried: 1, delivered: 1, refused: 0 });
  assert.equal(failures.length, 0);
});

test("a purge larger than the site takes goes as several requests, 500 paths and 500 tags each", async () => {
  const site = frontEnd();
  const service = createRevalidationService(fakeStrapi(), { config: CONFIG, fetch: site.fetch, sleep: async () => {} });
  const paths = Array.from({ length: 1100 }, (_, i) => `/moved/${i}`);
  const tags = Array.from({ length: 600 }, (_, i) => `cms:api::page.page:p${i}`);
  const done = service.revalidate({ uid: "api::page.page", fullPaths: ["/moved/*"], tags, expire: true });
  await site.requests(1);
  site.answer(200, { paths, tags });
  for (let call = 2; call <= 4; call += 1) {
    await site.requests(call);
    site.answer(200, { purged: true });
  }
  await done;
  const purges = site.calls.slice(1).map((call) => call.body);
  assert.deepEqual(
    purges.map((body) => [body.paths?.length ?? 0, body.tags?.length ?? 0]),
    [
      [500, 500],
      [500, 100],
      [100, 0],
    ],
  );
  assert.deepEqual(
    purges.flatMap((body) => body.paths ?? []),
    paths,
  );
});

test("a purge the site refuses (4xx but 429) is recorded once, not retried: sending it again would fail again", async () => {
  const failures = [];
  const site = frontEnd();
  const service = createRevalidationService(fakeStrapi(failures), {
    config: { ...CONFIG, purgeRetries: 2 },
    fetch: site.fetch,
    sleep: async () => {},
  });
  const done = service.revalidate({ uid: "api::redirect.redirect", fullPaths: ["/en/old"], expire: true });
  await site.requests(1);
  site.answer(200, { paths: ["/en/old", "/old"] });
  await site.requests(2);
  site.answer(400, { error: "Invalid purge request." });
  await done;
  assert.equal(site.calls.length, 2, "no second purge request");
  assert.equal(failures.length, 1);
  assert.equal(failures[0].state, "rejected");
  assert.deepEqual(await service.retryFailures(), { retried: 0, delivered: 0, refused: 0 });
});
