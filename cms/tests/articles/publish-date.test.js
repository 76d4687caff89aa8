"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");

const { futureDateRefusal, publishDateFor, registerPublishDate, ARTICLE } = require("../../src/articles/publish-date");

const NOW = new Date("2026-11-27T10:00:00.000Z");

test("publishDateFor: the first publish takes now; a later one keeps the date; a given one wins", () => {
  assert.equal(publishDateFor({ given: null, kept: null, now: NOW }), NOW.toISOString());
  assert.equal(publishDateFor({ given: null, kept: "2026-01-02T03:04:05.000Z", now: NOW }), "2026-01-02T03:04:05.000Z");
  assert.equal(
    publishDateFor({ given: "2025-05-05T00:00:00.000Z", kept: "2026-01-02T03:04:05.000Z", now: NOW }),
    "2025-05-05T00:00:00.000Z",
  );
  // Empty or unreadable values count as none.
  assert.equal(publishDateFor({ given: "", kept: "not a date", now: NOW }), NOW.toISOString());
  assert.equal(
    publishDateFor({ given: undefined, kept: new Date("2026-02-02T00:00:00Z"), now: NOW }),
    "2026-02-02T00:00:00.000Z",
  );
});

/** A Strapi stand-in with one document middleware slot and an article table. */
function standIn(rows) {
  const updates = [];
  let middleware;
  const strapi = {
    documents: { use: (fn) => (middleware = fn) },
    plugin: () => ({ service: () => ({ getDefaultLocale: async () => "en" }) }),
    db: {
      query: (uid) => {
        assert.equal(uid, ARTICLE);
        return {
          findMany: async ({ where }) =>
            rows.filter((row) => row.documentId === where.documentId && (!where.locale || row.locale === where.locale)),
          update: async ({ where, data }) => {
            updates.push({ id: where.id, ...data });
            Object.assign(
              rows.find((row) => row.id === where.id),
              data,
            );
          },
        };
      },
    },
  };
  registerPublishDate(strapi, { now: () => NOW, clock: () => NOW.getTime() });
  const run = async (context) => {
    let seen;
    await middleware(context, async () => (seen = context.params));
    return seen;
  };
  return { run, updates };
}

test("publish: a draft without a date gets now on the first publish, in the published locale only", async () => {
  const rows = [
    { id: 1, documentId: "a", locale: "en", publishedAt: null, publishDate: null },
    { id: 2, documentId: "a", locale: "de", publishedAt: null, publishDate: null },
  ];
  const { run, updates } = standIn(rows);
  await run({ uid: ARTICLE, action: "publish", params: { documentId: "a", locale: "en" } });
  assert.deepEqual(updates, [{ id: 1, publishDate: NOW.toISOString() }]);
});

test("republish after an edit: the date is not moved", async () => {
  const rows = [
    { id: 1, documentId: "a", locale: "en", publishedAt: null, publishDate: "2026-01-01T00:00:00.000Z" },
    {
      id: 3,
      documentId: "a",
      locale: "en",
      publishedAt: "2026-01-01T00:00:00.000Z",
      publishDate: "2026-01-01T00:00:00.000Z",
    },
  ];
  const { run, updates } = standIn(rows);
  await run({ uid: ARTICLE, action: "publish", params: { documentId: "a" } });
  assert.deepEqual(updates, []);
  // A draft whose date was lost (cleared) takes the published version's back.
  rows[0].publishDate = null;
  await run({ uid: ARTICLE, action: "publish", params: { documentId: "a", locale: "en" } });
  assert.deepEqual(updates, [{ id: 1, publishDate: "2026-01-01T00:00:00.000Z" }]);
});

test("create/update with status published: the write carries the kept date, or its own, or now", async () => {
  const rows = [
    {
      id: 3,
      documentId: "a",
      locale: "en",
      publishedAt: "2026-01-01T00:00:00.000Z",
      publishDate: "2026-01-01T00:00:00.000Z",
    },
  ];
  const { run } = standIn(rows);
  const kept = await run({
    uid: ARTICLE,
    action: "update",
    params: { documentId: "a", locale: "en", status: "published", data: { title: "Edited" } },
  });
  assert.deepEqual(kept.data, { title: "Edited", publishDate: "2026-01-01T00:00:00.000Z" });
  const created = await run({
    uid: ARTICLE,
    action: "create",
    params: { locale: "en", status: "published", data: { title: "New" } },
  });
  assert.equal(created.data.publishDate, NOW.toISOString());
  const given = await run({
    uid: ARTICLE,
    action: "create",
    params: { locale: "en", status: "published", data: { title: "Old", publishDate: "2020-01-01T00:00:00.000Z" } },
  });
  assert.equal(given.data.publishDate, "2020-01-01T00:00:00.000Z");
});

test("draft saves and other types pass through untouched", async () => {
  const { run, updates } = standIn([]);
  const params = { documentId: "a", locale: "en", data: { title: "Draft" } };
  assert.equal(await run({ uid: ARTICLE, action: "update", params }), params);
  const page = { documentId: "p", locale: "en" };
  assert.equal(await run({ uid: "api::page.page", action: "publish", params: page }), page);
  assert.deepEqual(updates, []);
});

test("a publish date still to come refuses the publish (issue 32: dated next June, live at once)", async () => {
  assert.equal(futureDateRefusal("2026-11-27T09:59:59.000Z", NOW.getTime()), null);
  assert.equal(futureDateRefusal(null, NOW.getTime()), null);
  assert.match(futureDateRefusal("2027-06-01T09:00:00.000Z", NOW.getTime()), /has not come yet.*"Publish at"/);

  const rows = [{ id: 1, documentId: "a", locale: "en", publishedAt: null, publishDate: "2027-06-01T09:00:00.000Z" }];
  const { run, updates } = standIn(rows);
  await assert.rejects(run({ uid: ARTICLE, action: "publish", params: { documentId: "a", locale: "en" } }), {
    name: "ValidationError",
    message: /2027-06-01T09:00:00.000Z has not come yet/,
  });
  assert.deepEqual(updates, [], "nothing written");
  await assert.rejects(
    run({
      uid: ARTICLE,
      action: "create",
      params: { locale: "en", status: "published", data: { publishDate: "2027-06-01T09:00:00.000Z" } },
    }),
    { name: "ValidationError" },
  );
});
