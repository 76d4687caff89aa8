"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");

const { runTick } = require("../../../../../../../packages/strapi-plugin-site-cache/server/services/schedule/tick");
const {
  scheduledTime,
} = require("../../../../../../../packages/strapi-plugin-site-cache/server/services/schedule/run-context");
const { fakeDb } = require("./fake-db");

const ARTICLE = { uid: "api::article.article", localized: true, schedule: true };
const NOW = new Date("2026-11-28T12:00:00.000Z");
const silent = { info() {}, warn() {}, error() {} };

/** Document actions that record what they were asked, and when the scheduled publish was due. */
function recordingDocuments(rows, { fail } = {}) {
  const calls = [];
  const documents = (uid) => ({
    publish: async (params) => {
      await new Promise((resolve) => setImmediate(resolve)); // a real publish takes a while
      if (fail) throw fail;
      calls.push({ uid, action: "publish", ...params, dueAt: scheduledTime()?.toISOString() ?? null });
      rows.push({ id: rows.length + 100, documentId: params.documentId, locale: params.locale, publishedAt: NOW });
    },
    unpublish: async (params) => {
      if (fail) throw fail;
      calls.push({ uid, action: "unpublish", ...params });
    },
  });
  return { documents, calls };
}

const draft = (id, fields) => ({
  id,
  documentId: `doc${id}`,
  locale: "en",
  publishedAt: null,
  publishAt: null,
  unpublishAt: null,
  ...fields,
});

test("a due publishAt publishes the draft in its locale, with the scheduled time in context, and is cleared", async () => {
  const rows = [
    draft(1, { publishAt: "2026-11-28T11:59:00.000Z" }),
    draft(2, { publishAt: "2026-11-28T12:05:00.000Z" }),
  ];
  const { documents, calls } = recordingDocuments(rows);
  const done = await runTick({ db: fakeDb(rows), documents, declarations: [ARTICLE], now: NOW, log: silent });
  assert.deepEqual(calls, [
    { uid: ARTICLE.uid, action: "publish", documentId: "doc1", locale: "en", dueAt: "2026-11-28T11:59:00.000Z" },
  ]);
  assert.deepEqual(
    done.map((d) => d.outcome),
    ["published"],
  );
  assert.equal(rows[0].publishAt, null, "the claim cleared the schedule");
  assert.equal(rows[1].publishAt, "2026-11-28T12:05:00.000Z", "not due: kept");
});

test("two instances ticking at the same moment: each due row is published once", async () => {
  const rows = [1, 2, 3].map((id) => draft(id, { publishAt: "2026-11-28T11:00:00.000Z" }));
  const db = fakeDb(rows);
  const { documents, calls } = recordingDocuments(rows);
  const tick = () => runTick({ db, documents, declarations: [ARTICLE], now: NOW, log: silent });
  const [first, second] = await Promise.all([tick(), tick()]);
  assert.deepEqual(calls.map((c) => c.documentId).sort(), ["doc1", "doc2", "doc3"]);
  assert.equal(first.length + second.length, 3, "every row claimed by exactly one of the two");
});

test("an unpublishAt due on a published document unpublishes it; on one not published, only clears", async () => {
  const rows = [
    draft(1, { unpublishAt: "2026-11-28T11:00:00.000Z" }),
    { id: 11, documentId: "doc1", locale: "en", publishedAt: "2026-11-01T00:00:00.000Z" },
    draft(2, { unpublishAt: "2026-11-28T11:00:00.000Z" }),
  ];
  const { documents, calls } = recordingDocuments(rows);
  const done = await runTick({ db: fakeDb(rows), documents, declarations: [ARTICLE], now: NOW, log: silent });
  assert.deepEqual(calls, [{ uid: ARTICLE.uid, action: "unpublish", documentId: "doc1", locale: "en" }]);
  assert.deepEqual(
    done.map((d) => [d.documentId, d.outcome]),
    [
      ["doc1", "unpublished"],
      ["doc2", "not-published"],
    ],
  );
  assert.equal(rows[2].unpublishAt, null);
});

test("a publish that fails for a passing reason puts the time back; one Strapi refuses drops it", async () => {
  const rows = [draft(1, { publishAt: "2026-11-28T11:00:00.000Z" })];
  const busy = recordingDocuments(rows, { fail: new Error("SQLITE_BUSY") });
  let done = await runTick({
    db: fakeDb(rows),
    documents: busy.documents,
    declarations: [ARTICLE],
    now: NOW,
    log: silent,
  });
  assert.equal(done[0].outcome, "retry");
  assert.equal(rows[0].publishAt, "2026-11-28T11:00:00.000Z", "the next tick tries again");

  const refusal = Object.assign(new Error("title must be defined"), { name: "ValidationError" });
  const refused = recordingDocuments(rows, { fail: refusal });
  done = await runTick({
    db: fakeDb(rows),
    documents: refused.documents,
    declarations: [ARTICLE],
    now: NOW,
    log: silent,
  });
  assert.equal(done[0].outcome, "refused");
  assert.equal(rows[0].publishAt, null, "not retried every minute for ever");
});

test("types without schedule: true are not looked at; published rows never count as due", async () => {
  const rows = [{ id: 1, documentId: "doc1", locale: "en", publishedAt: NOW, publishAt: "2026-11-28T11:00:00.000Z" }];
  const { documents, calls } = recordingDocuments(rows);
  await runTick({ db: fakeDb(rows), documents, declarations: [ARTICLE], now: NOW, log: silent });
  await runTick({
    db: fakeDb([draft(2, { publishAt: "2026-11-28T11:00:00.000Z" })]),
    documents,
    declarations: [{ ...ARTICLE, schedule: false }],
    now: NOW,
    log: silent,
  });
  assert.deepEqual(calls, []);
});
