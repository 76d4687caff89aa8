"use strict";

/**
 * A Strapi in refresh mode for the unit tests of ./session-check.test.js and
 * ./two-factor-sign-in.test.js: the plugin's real JWT service and Strapi's real session manager,
 * over an in-memory table instead of the database, with the accounts plugin's session check and
 * two-factor sign-in applied through the extension points (./fake-points.js), as ../register.js
 * applies them.
 */
const path = require("node:path");

const { extendSessionCheck } = require("../../../../../src/plugins/accounts/server/users-permissions/session-check");
const {
  extendTwoFactorSignIn,
} = require("../../../../../src/plugins/accounts/server/users-permissions/two-factor-sign-in");
const { fakePoints } = require("./fake-points");

// The real parts: the plugin's JWT service and Strapi's session manager (by file: the packages'
// exports do not list them), over an in-memory table instead of the database.
const pluginDir = path.dirname(require.resolve("@strapi/plugin-users-permissions/package.json"));
const createPluginJwtService = require(path.join(pluginDir, "dist/server/services/jwt.js")).__require();
const coreDir = path.dirname(require.resolve("@strapi/core/package.json"));
const { createSessionManager } = require(path.join(coreDir, "dist/services/session-manager.js"));

const SECRET = "unit-test-secret";
const DAY = 24 * 60 * 60;

/** A row matches a where clause: equality, `{ $lt }` for dates, `{ $in }` for lists, `$or`, `{ $eqi }`, `{ $ne }`. */
function matches(row, where = {}) {
  return Object.entries(where).every(([key, value]) => {
    if (key === "$or") return value.some((alternative) => matches(row, alternative));
    if (value && typeof value === "object" && !(value instanceof Date) && "$eqi" in value) {
      return String(row[key] ?? "").toLowerCase() === String(value.$eqi).toLowerCase();
    }
    if (value && typeof value === "object" && !(value instanceof Date) && "$ne" in value) {
      return String(row[key]) !== String(value.$ne);
    }
    if (value && typeof value === "object" && !(value instanceof Date) && "$lt" in value) {
      return new Date(row[key]).getTime() < new Date(value.$lt).getTime();
    }
    if (value && typeof value === "object" && !(value instanceof Date) && "$in" in value) {
      return value.$in.includes(row[key]);
    }
    return row[key] === value;
  });
}

/** An in-memory db.query(uid) with what the session manager and the code under test use. */
function memoryDb(tables) {
  let nextId = 1;
  const table = (uid) => (tables[uid] ??= []);
  const pick = (row, select) => (row && select ? Object.fromEntries(select.map((k) => [k, row[k]])) : row);
  return {
    query: (uid) => ({
      async create({ data }) {
        const row = { id: nextId++, createdAt: new Date(), ...data };
        table(uid).push(row);
        return { ...row };
      },
      async findOne({ where, select }) {
        const row = table(uid).find((r) => matches(r, where));
        return row ? pick({ ...row }, select) : null;
      },
      async findMany({ where, select } = {}) {
        return table(uid)
          .filter((r) => matches(r, where))
          .map((r) => pick({ ...r }, select));
      },
      async update({ where, data }) {
        const row = table(uid).find((r) => matches(r, where));
        if (row) Object.assign(row, data);
        return row ? { ...row } : null;
      },
      async delete({ where }) {
        tables[uid] = table(uid).filter((r) => !matches(r, where));
      },
      async deleteMany({ where }) {
        tables[uid] = table(uid).filter((r) => !matches(r, where));
      },
    }),
  };
}

/**
 * A Strapi in refresh mode with users 7 (two-factor on) and 8, Strapi's session manager, and the
 * JWT service and auth controller as the session check and the two-factor sign-in wrap them.
 */
function setup({ mode = "refresh", authController = {} } = {}) {
  const tables = {
    "plugin::users-permissions.user": [
      { id: 7, twoFactorEnabled: true },
      { id: 8, twoFactorEnabled: false },
    ],
  };
  const db = memoryDb(tables);
  const config = {
    "plugin::users-permissions.jwtManagement": mode,
    "plugin::users-permissions.jwt": { expiresIn: "30d" },
    "plugin::users-permissions.jwtSecret": SECRET,
  };
  const manager = createSessionManager({ db });
  manager.defineOrigin("users-permissions", {
    jwtSecret: SECRET,
    accessTokenLifespan: 30 * DAY,
    maxRefreshTokenLifespan: 30 * DAY,
    idleRefreshTokenLifespan: 30 * DAY,
    maxSessionLifespan: DAY,
    idleSessionLifespan: DAY,
    jwtOptions: {},
  });
  const strapi = {
    config: { get: (key, fallback) => (key in config ? config[key] : fallback) },
    db,
    sessionManager: manager,
  };
  const points = fakePoints({
    strapi,
    services: { jwt: createPluginJwtService({ strapi }) },
    controllers: { auth: authController },
  });
  extendSessionCheck(points);
  extendTwoFactorSignIn(points);
  const jwt = points.services.jwt;
  strapi.plugin = () => ({ service: () => jwt });
  return { strapi, jwt, tables, points, sessions: () => tables["admin::session"] ?? [] };
}

module.exports = { SECRET, setup, memoryDb };
