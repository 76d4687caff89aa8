"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");

const {
  orderRefusal,
  publishRefusal,
  registerScheduleRules,
} = require("../../../../../../../packages/strapi-plugin-site-cache/server/services/schedule/rules");

const NOW = Date.parse("2026-11-28T12:00:00.000Z");
const ARTICLE = "api::article.article";

test("publishRefusal: a publishAt still ahead refuses the publish, naming the time; none or a past one does not", () => {
  assert.match(
    publishRefusal(["2026-12-01T09:00:00.000Z"], NOW),
    /scheduled to be published at 2026-12-01T09:00:00.000Z/,
  );
  assert.match(publishRefusal(["2026-12-01T09:00:00.000Z"], NOW), /Press Save to keep the schedule/);
  assert.equal(publishRefusal([null, "2026-11-28T11:59:59.000Z"], NOW), null);
  assert.equal(publishRefusal([], NOW), null);
});

test("orderRefusal: an unpublish at or before the publish is refused; either alone is fine", () => {
  const at = "2026-12-01T09:00:00.000Z";
  assert.match(orderRefusal({ publishAt: at, unpublishAt: at }), /must be later than "Publish at"/);
  assert.match(orderRefusal({ publishAt: at, unpublishAt: "2026-11-30T09:00:00.000Z" }), /later/);
  assert.equal(orderRefusal({ publishAt: at, unpublishAt: "2026-12-02T09:00:00.000Z" }), null);
  assert.equal(orderRefusal({ publishAt: null, unpublishAt: at }), null);
  assert.equal(orderRefusal({}), null);
});

/** A Strapi stand-in: one document middleware, the draft rows of one article. */
function standIn(drafts, schedule = true) {
  let middleware;
  const strapi = {
    documents: { use: (fn) => (middleware = fn) },
    plugin: () => ({ service: () => ({ getDefaultLocale: async () => "en" }) }),
    db: {
      query: () => ({
        findMany: async ({ where }) =>
          drafts.filter((row) => row.documentId === where.documentId && (!where.locale || row.locale === where.locale)),
        updateMany: async ({ where, data }) => {
          const hit = drafts.filter(
            (row) =>
              row.documentId === where.documentId && (!where.locale || row.locale === where.locale) && row.publishAt,
          );
          for (const row of hit) Object.assign(row, data);
          return { count: hit.length };
        },
      }),
    },
  };
  const siteTypes = () => ({ declarationOf: (uid) => (uid === ARTICLE ? { uid, localized: true, schedule } : null) });
  registerScheduleRules(strapi, { siteTypes, clock: () => NOW });
  return async (context) => {
    let reached = null;
    await middleware(context, async () => (reached = context.params));
    return reached;
  };
}

test("Publish pressed while publishAt is ahead: refused (ValidationError) before anything is written", async () => {
  const run = standIn([{ documentId: "a", locale: "en", publishAt: "2026-12-01T09:00:00.000Z" }]);
  await assert.rejects(run({ uid: ARTICLE, action: "publish", params: { documentId: "a", locale: "en" } }), {
    name: "ValidationError",
    message: /scheduled to be published at 2026-12-01T09:00:00.000Z/,
  });
  // The de draft has no schedule: its publish goes on.
  const other = standIn([{ documentId: "a", locale: "de", publishAt: null }]);
  assert.ok(await other({ uid: ARTICLE, action: "publish", params: { documentId: "a", locale: "de" } }));
  // A create or update that publishes, with its own future publishAt: refused too.
  await assert.rejects(
    run({
      uid: ARTICLE,
      action: "create",
      params: { status: "published", data: { publishAt: "2027-01-01T00:00:00Z" } },
    }),
    { name: "ValidationError" },
  );
});

test("a clone starts without a schedule; other types pass untouched", async () => {
  const run = standIn([]);
  const params = await run({
    uid: ARTICLE,
    action: "clone",
    params: { documentId: "a", data: { title: "Copy" } },
  });
  assert.deepEqual(params.data, { title: "Copy", publishAt: null, unpublishAt: null });
  const untouched = { documentId: "p", data: { publishAt: "2099-01-01T00:00:00Z" } };
  assert.equal(await run({ uid: "api::page.page", action: "clone", params: untouched }), untouched);
  const notScheduled = standIn([{ documentId: "a", locale: "en", publishAt: "2099-01-01T00:00:00Z" }], false);
  assert.ok(await notScheduled({ uid: ARTICLE, action: "publish", params: { documentId: "a", locale: "en" } }));
});

test("a draft save with unpublishAt before publishAt is refused", async () => {
  const run = standIn([]);
  await assert.rejects(
    run({
      uid: ARTICLE,
      action: "update",
      params: { documentId: "a", data: { publishAt: "2026-12-02T00:00:00Z", unpublishAt: "2026-12-01T00:00:00Z" } },
    }),
    { name: "ValidationError", message: /later than "Publish at"/ },
  );
});

test("Publish with a publish-at already past publishes and clears it, so no tick publishes again", async () => {
  const drafts = [{ documentId: "a", locale: "en", publishAt: "2026-11-28T11:00:00.000Z" }];
  const run = standIn(drafts);
  assert.ok(await run({ uid: ARTICLE, action: "publish", params: { documentId: "a", locale: "en" } }));
  assert.equal(drafts[0].publishAt, null);
  const params = await run({
    uid: ARTICLE,
    action: "update",
    params: { documentId: "a", status: "published", data: { title: "t", publishAt: "2026-11-28T11:00:00.000Z" } },
  });
  assert.deepEqual(params.data, { title: "t", publishAt: null });
});
