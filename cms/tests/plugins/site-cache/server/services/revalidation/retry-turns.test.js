"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");

const {
  takeRetryTurn,
  claimFailure,
  TURN_KEY,
  CLAIM_MARGIN_MS,
} = require("../../../../../../../packages/strapi-plugin-site-cache/server/services/revalidation/retry-turns");
const { quiet, matches } = require("./stand-ins");

/**
 * One shared database for several "instances": Strapi's core store and the failures table as
 * arrays, with the conditional update (updateMany's where: every field equal) the module relies on.
 */
function sharedDatabase() {
  const tables = { "strapi::core-store": [], "plugin::site-cache.revalidation-failure": [] };
  let nextId = 1;
  const strapi = {
    log: quiet,
    db: {
      query: (uid) => ({
        findOne: async ({ where }) =>
          tables[uid].filter((row) => matches(row, where)).sort((a, b) => a.id - b.id)[0] ?? null,
        create: async ({ data }) => {
          const row = { id: nextId++, ...data };
          tables[uid].push(row);
          return row;
        },
        updateMany: async ({ where, data }) => {
          const rows = tables[uid].filter((row) => matches(row, where));
          for (const row of rows) Object.assign(row, data);
          return { count: rows.length };
        },
      }),
    },
  };
  return { strapi, tables };
}

const INTERVAL = 30_000;

test("two instances ticking at the same moment: one pass between them", async () => {
  const { strapi, tables } = sharedDatabase();
  const turns = await Promise.all([
    takeRetryTurn(strapi, { intervalMs: INTERVAL, nowMs: 1_000_000 }),
    takeRetryTurn(strapi, { intervalMs: INTERVAL, nowMs: 1_000_000 }),
  ]);
  assert.deepEqual(turns.sort(), [false, true]);
  // Should both first ticks create the row, the later row is never read: the oldest decides.
  const rows = tables["strapi::core-store"].filter((row) => row.key === TURN_KEY);
  assert.equal(JSON.parse(rows[0].value).at, 1_000_000);
});

test("ticks out of phase: a pass no sooner than 0.9 of an interval after the last one began", async () => {
  const { strapi } = sharedDatabase();
  const at = (nowMs) => takeRetryTurn(strapi, { intervalMs: INTERVAL, nowMs });
  const start = 5_000_000;
  // Instance A ticks at 0, 30 s, 60 s; instance B at 12 s, 42 s: B never runs a pass while A does.
  assert.equal(await at(start), true);
  assert.equal(await at(start + 12_000), false);
  assert.equal(await at(start + 30_000), true);
  assert.equal(await at(start + 42_000), false);
  // A has stopped: B's next tick takes over, an interval after A's last pass at most.
  assert.equal(await at(start + 72_000), true);
  assert.equal(await at(start + 72_000 + 26_999), false);
  assert.equal(await at(start + 72_000 + 27_000), true);
});

test("a store that fails: no pass (logged), never a rejection", async () => {
  const errors = [];
  const strapi = {
    log: { ...quiet, error: (line) => errors.push(line) },
    db: { query: () => ({ findOne: async () => Promise.reject(new Error("connection lost")) }) },
  };
  assert.equal(await takeRetryTurn(strapi, { intervalMs: INTERVAL }), false);
  assert.match(errors[0], /could not take the retry turn: connection lost/);
});

test("a failure read by two passes is claimed by one; the claim counts the attempt", async () => {
  const { strapi, tables } = sharedDatabase();
  const failures = tables["plugin::site-cache.revalidation-failure"];
  failures.push({ id: 7, attempts: 4, state: "pending" }, { id: 8, attempts: null, state: "pending" });
  const readByBoth = failures.map((row) => ({ ...row }));
  const nowMs = 1_000_000;
  for (const row of readByBoth) {
    const claims = await Promise.all([
      claimFailure(strapi, row, { sendMs: 5_000, nowMs }),
      claimFailure(strapi, row, { sendMs: 5_000, nowMs }),
    ]);
    assert.deepEqual(claims.sort(), [false, true]);
  }
  assert.deepEqual(
    failures.map((row) => row.attempts),
    [5, 1],
  );
  assert.ok(failures.every((row) => row.sendingUntil.getTime() === nowMs + 5_000 + CLAIM_MARGIN_MS));
  // A row deleted meanwhile (delivered by the other pass) is not sent again.
  assert.equal(await claimFailure(strapi, { id: 9, attempts: 0 }, { sendMs: 5_000, nowMs }), false);
});

test("a failure another instance is sending is left alone, also by a pass that read it after the claim", async () => {
  const { strapi, tables } = sharedDatabase();
  const failures = tables["plugin::site-cache.revalidation-failure"];
  failures.push({ id: 7, attempts: 2, state: "pending", sendingUntil: null });
  const claim = (nowMs) => claimFailure(strapi, { ...failures[0] }, { sendMs: 5_000, nowMs });
  assert.equal(await claim(1_000_000), true);
  // Read now (attempts 3, the claim's), while the first instance still sends: not claimed.
  assert.equal(await claim(1_000_000 + 4_000), false);
  // Settled (service.js: the count, and no claim): the next pass may send it.
  Object.assign(failures[0], { sendingUntil: null });
  assert.equal(await claim(1_000_000 + 6_000), true);
  // An instance that died while sending: its claim expires after the send's time and the margin.
  assert.equal(await claim(1_000_000 + 6_000 + 5_000 + CLAIM_MARGIN_MS - 1), false);
  assert.equal(await claim(1_000_000 + 6_000 + 5_000 + CLAIM_MARGIN_MS + 1), true);
});
