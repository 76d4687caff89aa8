"use strict";

const { DEFAULTS } = require("../../../../../../../packages/strapi-plugin-site-cache/server/config");

/** Stand-ins for the revalidation service's tests: Strapi's log and database, and the site. */

const quiet = { info() {}, warn() {}, error() {}, debug() {} };

/** Whether a row meets a `where` of Strapi's query engine as the claims write them: equal fields, `$or`, `$lt`. */
function matches(row, where) {
  return Object.entries(where).every(([field, condition]) => {
    if (field === "$or") return condition.some((one) => matches(row, one));
    const value = row[field] ?? null;
    if (condition && typeof condition === "object" && "$lt" in condition)
      return value !== null && value < condition.$lt;
    return value === condition;
  });
}

/**
 * Just enough of Strapi for the service: the default locale, and the failures table as the
 * array `failures`. `nextWrite()` resolves at the next write to it (create, update, delete).
 */
function fakeStrapi(failures = []) {
  let nextId = 1;
  const waiters = [];
  const written = (value) => {
    for (const resolve of waiters.splice(0)) resolve();
    return value;
  };
  const indexOf = (where) => failures.findIndex((row) => row.id === where.id);
  return {
    log: quiet,
    plugin: () => ({ service: () => ({ getDefaultLocale: async () => "en" }) }),
    nextWrite: () => new Promise((resolve) => waiters.push(resolve)),
    db: {
      query: () => ({
        create: async ({ data }) => {
          const row = { id: nextId++, ...data };
          failures.push(row);
          return written(row);
        },
        findMany: async () => failures.filter((row) => row.state === "pending"),
        update: async ({ where, data }) => {
          const row = failures[indexOf(where)];
          if (row) Object.assign(row, data);
          return written(row ?? null);
        },
        // The retry's claim (retry-turns.js): a conditional update.
        updateMany: async ({ where, data }) => {
          const rows = failures.filter((row) => matches(row, where));
          for (const row of rows) Object.assign(row, data);
          return written({ count: rows.length });
        },
        delete: async ({ where }) => {
          const index = indexOf(where);
          return written(index === -1 ? null : failures.splice(index, 1)[0]);
        },
      }),
    },
  };
}

/**
 * A front end whose answers the test releases one at a time: `calls` lists every request
 * (path and body) in the order it was made, `answer(status, body)` answers the oldest one still
 * waiting, `answersBefore[i]`: how many answers had been given when request i was made. A request
 * the client gives up on (its signal aborts) fails as fetch does, and is no longer waiting.
 */
function frontEnd() {
  const calls = [];
  const answersBefore = [];
  const waiting = [];
  let answered = 0;
  let arrived = () => {};
  const fetch = (url, init) => {
    calls.push({ path: new URL(url).pathname, body: JSON.parse(init.body), authorization: init.headers.authorization });
    answersBefore.push(answered);
    arrived();
    return new Promise((resolve, reject) => {
      const entry = { resolve };
      waiting.push(entry);
      init.signal?.addEventListener("abort", () => {
        waiting.splice(waiting.indexOf(entry), 1);
        reject(init.signal.reason);
      });
    });
  };
  return {
    fetch,
    calls,
    answersBefore,
    /** Resolves once `n` requests have been made. */
    requests: (n) =>
      calls.length >= n
        ? Promise.resolve()
        : new Promise((resolve) => {
            arrived = () => calls.length >= n && resolve();
          }),
    answer: (status, body = {}) => {
      answered += 1;
      waiting.shift().resolve(new Response(JSON.stringify(body), { status }));
    },
  };
}

/** The service's configuration in these tests: revalidation and purge on, against frontEnd(), no retries. */
const SERVICE_CONFIG = Object.freeze({
  ...DEFAULTS,
  revalidateSecret: "revalidate-secret",
  cdnPurgeSecret: "purge-secret",
  clientUrl: "http://site.test",
  retries: 0,
  signingKeys: ["test-app-key"],
});

module.exports = { quiet, matches, fakeStrapi, frontEnd, SERVICE_CONFIG };
