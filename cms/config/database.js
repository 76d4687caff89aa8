"use strict";

const path = require("node:path");

const CMS_ROOT = path.resolve(__dirname, "..");

module.exports = ({ env }) => {
  const client = env("DATABASE_CLIENT", "sqlite");

  if (client === "postgres") {
    const ssl = env.bool("DATABASE_SSL", false)
      ? { rejectUnauthorized: env.bool("DATABASE_SSL_REJECT_UNAUTHORIZED", true) }
      : false;
    const connectionString = env("DATABASE_URL");
    return {
      connection: {
        client: "postgres",
        connection: connectionString
          ? { connectionString, ssl, schema: env("DATABASE_SCHEMA", "public") }
          : {
              host: env("DATABASE_HOST", "127.0.0.1"),
              port: env.int("DATABASE_PORT", 5432),
              database: env("DATABASE_NAME", "strapi"),
              user: env("DATABASE_USERNAME", "strapi"),
              password: env("DATABASE_PASSWORD", "strapi"),
              ssl,
              schema: env("DATABASE_SCHEMA", "public"),
            },
        pool: { min: env.int("DATABASE_POOL_MIN", 2), max: env.int("DATABASE_POOL_MAX", 10) },
        acquireConnectionTimeout: env.int("DATABASE_CONNECTION_TIMEOUT", 60000),
      },
    };
  }

  if (client !== "sqlite") {
    throw new Error(`[cms] Unsupported DATABASE_CLIENT "${client}" (use "sqlite" or "postgres").`);
  }

  return {
    connection: {
      client: "sqlite",
      connection: {
        // Relative paths are resolved against cms/, not the current working directory.
        filename: path.resolve(CMS_ROOT, env("DATABASE_FILENAME", ".tmp/data.db")),
      },
      useNullAsDefault: true,
      // Write-ahead log, fsync at checkpoints only: each write no longer waits for the disk, which
      // better-sqlite3 does on the event loop (decision 0037, "SQLite under a burst").
      pool: {
        afterCreate(connection, done) {
          connection.pragma("journal_mode = WAL");
          connection.pragma("synchronous = NORMAL");
          done();
        },
      },
      acquireConnectionTimeout: env.int("DATABASE_CONNECTION_TIMEOUT", 60000),
    },
  };
};
