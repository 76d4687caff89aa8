"use strict";

/**
 * A stand-in for `strapi.db` over rows in memory, with the query operators the scheduler uses
 * (equality, null, $notNull, $lte). Each `updateMany` checks its `where` and writes in one
 * synchronous step, as one UPDATE statement does in the database: what the claim relies on.
 */
const ms = (value) => (value instanceof Date ? value.getTime() : Date.parse(value));

function matches(row, where) {
  return Object.entries(where).every(([key, condition]) => {
    const value = row[key] ?? null;
    if (condition === null) return value === null;
    if (condition && typeof condition === "object" && !(condition instanceof Date)) {
      if (condition.$notNull === true && value === null) return false;
      if (condition.$lte !== undefined && (value === null || ms(value) > ms(condition.$lte))) return false;
      return true;
    }
    return value === condition;
  });
}

function fakeDb(rows) {
  const query = () => ({
    findMany: async ({ where, limit }) => rows.filter((row) => matches(row, where)).slice(0, limit ?? Infinity),
    findOne: async ({ where }) => rows.find((row) => matches(row, where)) ?? null,
    updateMany: async ({ where, data }) => {
      const hit = rows.filter((row) => matches(row, where));
      for (const row of hit) Object.assign(row, data);
      return { count: hit.length };
    },
  });
  return { query };
}

module.exports = { fakeDb };
