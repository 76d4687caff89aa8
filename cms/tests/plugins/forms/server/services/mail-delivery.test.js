"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");

const createMailDelivery = require("../../../../../src/plugins/forms/server/services/mail-delivery");

/**
 * The mail delivery against an in-memory table (the methods of strapi.db.query it calls) and an
 * email service that fails while `down` is set: the retry is bounded, its wait doubles, and two
 * instances racing for one row send it once.
 */
function fakeStrapi({ maxMailAttempts = 3, retryBaseSeconds = 60 } = {}) {
  const rows = new Map();
  const sent = [];
  const state = { down: false };
  const matches = (row, where) =>
    Object.entries(where).every(([key, wanted]) => {
      if (wanted && typeof wanted === "object" && "$lte" in wanted)
        return row[key] && new Date(row[key]) <= wanted.$lte;
      if (wanted instanceof Date || row[key] instanceof Date)
        return new Date(row[key]).getTime() === new Date(wanted).getTime();
      return row[key] === wanted;
    });
  const query = {
    async findOne({ where }) {
      const row = rows.get(where.id);
      return row ? { ...row } : null;
    },
    async findMany({ where, limit }) {
      return [...rows.values()].filter((row) => matches(row, where)).slice(0, limit);
    },
    async updateMany({ where, data }) {
      const hit = [...rows.values()].filter((row) => matches(row, where));
      for (const row of hit) Object.assign(row, data);
      return { count: hit.length };
    },
    async update({ where, data }) {
      Object.assign(rows.get(where.id), data);
    },
  };
  const strapi = {
    config: { get: () => ({ maxMailAttempts, retryBaseSeconds, retryIntervalMs: 1000 }) },
    db: { query: () => query },
    log: { warn() {}, error() {} },
    plugin: () => ({
      service: () => ({
        async send(mail) {
          // Another round may start while this one waits for the mail server.
          await new Promise((resolve) => setImmediate(resolve));
          if (state.down) throw new Error("connect ECONNREFUSED 127.0.0.1:25");
          sent.push(mail);
        },
      }),
    }),
  };
  const add = (id) =>
    rows.set(id, {
      id,
      form: "contact",
      pagePath: "/contact",
      pageLocale: "en",
      fields: [{ name: "email", label: "Email", value: "a@example.com", replyTo: true }],
      mailTo: "hello@example.com",
      mailStatus: "pending",
      mailAttempts: 0,
      nextMailAt: new Date(Date.now() - 1000),
    });
  /** Makes the row due now (the test's clock does not wait for the backoff). */
  const due = (id) => (rows.get(id).nextMailAt = new Date(Date.now() - 1));
  return { strapi, rows, sent, state, add, due };
}

test("a mail that keeps failing is tried maxMailAttempts times, waiting twice as long each time, then failed and kept", async () => {
  const fake = fakeStrapi({ maxMailAttempts: 3, retryBaseSeconds: 60 });
  const delivery = createMailDelivery({ strapi: fake.strapi });
  fake.add(1);
  fake.state.down = true;
  const waits = [];
  for (let attempt = 1; attempt <= 3; attempt++) {
    const before = Date.now();
    assert.equal(await delivery.deliver(1), attempt < 3 ? "retry" : "failed");
    const row = fake.rows.get(1);
    assert.equal(row.mailAttempts, attempt);
    if (row.nextMailAt) waits.push(Math.round((new Date(row.nextMailAt) - before) / 1000));
    fake.due(1);
  }
  assert.deepEqual(waits, [60, 120]);
  const row = fake.rows.get(1);
  assert.equal(row.mailStatus, "failed");
  assert.match(row.mailError, /ECONNREFUSED/);
  // Given up: no round picks it again, even with the provider back.
  fake.state.down = false;
  assert.equal(await delivery.retryDue(), 0);
  assert.equal(await delivery.deliver(1), "skipped");
  assert.equal(fake.sent.length, 0);
});

test("a row not yet due is left alone; once due and the provider back, it is sent with the sender as Reply-To", async () => {
  const fake = fakeStrapi();
  const delivery = createMailDelivery({ strapi: fake.strapi });
  fake.add(1);
  fake.state.down = true;
  assert.equal(await delivery.deliver(1), "retry");
  fake.state.down = false;
  assert.equal(await delivery.deliver(1), "not-due");
  fake.due(1);
  assert.equal(await delivery.retryDue(), 1);
  assert.equal(fake.rows.get(1).mailStatus, "sent");
  assert.equal(fake.sent.length, 1);
  assert.equal(fake.sent[0].to, "hello@example.com");
  assert.equal(fake.sent[0].replyTo, "a@example.com");
});

test("two instances delivering the same row at once send one mail", async () => {
  const fake = fakeStrapi();
  const [a, b] = [createMailDelivery({ strapi: fake.strapi }), createMailDelivery({ strapi: fake.strapi })];
  fake.add(1);
  const outcomes = await Promise.all([a.deliver(1), b.deliver(1)]);
  assert.deepEqual(outcomes.sort(), ["claimed-elsewhere", "sent"]);
  assert.equal(fake.sent.length, 1);
});

test("a round takes at most 20 rows: a long outage's backlog drains over several rounds", async () => {
  const fake = fakeStrapi();
  const delivery = createMailDelivery({ strapi: fake.strapi });
  for (let id = 1; id <= 25; id++) fake.add(id);
  assert.equal(await delivery.retryDue(), 20);
  assert.equal(await delivery.retryDue(), 5);
  assert.equal(fake.sent.length, 25);
});
