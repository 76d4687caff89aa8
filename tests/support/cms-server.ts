import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import {
  appendFileSync,
  closeSync,
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

import getPort from "./free-port.ts";

import { adminBuildIsCurrent } from "../../scripts/admin-build-sources.mjs";

/**
 * Starts the real Strapi in cms/ as a child process, the fast way: `node server.js` (what
 * `npm start` runs: Strapi's start for a JavaScript project, no compile step) with, by default,
 * SERVE_ADMIN=false (no admin panel build needed). The admin REST API (/admin/login,
 * /content-manager/...) still works; only the admin UI is not served.
 *
 * With `serveAdmin: true` it serves the admin UI too (SERVE_ADMIN=true): that needs the admin
 * build in cms/build, see ensureAdminBuild().
 *
 * The CMS seeds itself on start (demo content, admin user, read-only API token) and writes the
 * token's plain key to a file next to the database; that key is returned as `token`. A fresh
 * database is, by default, a copy of a seeded template (cmsTemplate(): one real first start per
 * version of the CMS, not one per test file); `firstStart: true` runs the real first start. Uploads
 * (the seed's image, files a test uploads) go to `<dbFile>.public/uploads`, removed with a
 * fresh database, so test runs leave nothing in cms/public.
 */

const cmsRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../cms");
const START_TIMEOUT_MS = 180_000;

/**
 * Fixed secrets for test databases, so a test run never reads or writes cms/.env (and a
 * token created in one run still matches its hash in the next run on the same database).
 */
export const TEST_SECRETS = JSON.parse(
  readFileSync(path.join(cmsRoot, "tests/support/test-secrets.json"), "utf8"),
) as Record<string, string>;
const STOP_GRACE_MS = 10_000;

export interface CmsHandle {
  url: string;
  token: string;
  dbFile: string;
  stop(): Promise<void>;
}

export interface CmsOptions {
  port: number;
  /**
   * SQLite file; made absolute. With `postgresUrl`, only where the token file and the uploads go
   * (`<dbFile>.readonly-token`, `<dbFile>.public`): instances given the same one share them.
   */
  dbFile: string;
  /**
   * The CMS on this PostgreSQL database instead of SQLite (scripts/postgres.mjs starts one): a
   * real start, seeding an empty database; never `fresh` (the caller makes the database).
   */
  postgresUrl?: string;
  /**
   * Delete the database (and its token file and uploads) first, and start on a newly seeded one:
   * a copy of the seeded template (cmsTemplate()), which starts as an empty database's first
   * start ends, or, with `firstStart: true`, the real first start on an empty database.
   */
  fresh?: boolean;
  /** With `fresh`: an empty database, seeded by this start (what tests of the seed itself need). */
  firstStart?: boolean;
  /** Extra environment for the CMS (wins over the defaults below). */
  env?: Record<string, string>;
  /** Where the CMS's stdout/stderr go; default: `<dbFile>.log`. */
  logFile?: string;
  /**
   * Serve the admin UI at /admin (SERVE_ADMIN=true); default false. Needs the admin build:
   * call ensureAdminBuild() first.
   */
  serveAdmin?: boolean;
  /** Run the CMS of another copy of the project (tests/support/project-copy.ts); default cms/. */
  root?: string;
}

/**
 * Where `strapi build` puts the admin UI and where Strapi 5 serves it from:
 * `<distDir>/build`, and this JavaScript project's distDir is cms/ itself (server.js).
 */
export const adminBuildDir = path.join(cmsRoot, "build");

/**
 * Builds the admin UI (`strapi build`, what `cd cms && npm run build` runs, about a minute)
 * unless cms/build/index.html is newer than its sources: the admin side of each local plugin
 * (cms/src/plugins/<name>/admin/, strapi-admin.js, package.json), cms/config/plugins.js and
 * cms/package-lock.json. Returns whether it built. The build runs with the test secrets, so
 * it never creates or changes cms/.env; its output goes to logFile.
 */
export function ensureAdminBuild(logFile: string): { built: boolean; ms: number } {
  if (adminBuildIsCurrent(cmsRoot)) return { built: false, ms: 0 };

  const started = Date.now();
  mkdirSync(path.dirname(logFile), { recursive: true });
  const logFd = openSync(logFile, "a");
  try {
    execFileSync(path.join(cmsRoot, "node_modules/.bin/strapi"), ["build"], {
      cwd: cmsRoot,
      env: {
        ...process.env,
        ...TEST_SECRETS,
        // React's production build: without it the admin bundles React's development build,
        // whose checks made the admin specs' edit views take over 30 s on a busy 2-core machine.
        NODE_ENV: "production",
        STRAPI_TELEMETRY_DISABLED: "true",
        STRAPI_DISABLE_UPDATE_NOTIFICATION: "true",
        FORCE_COLOR: "0",
      },
      stdio: ["ignore", logFd, logFd],
    });
  } catch (error) {
    throw new Error(
      `ensureAdminBuild: \`strapi build\` failed (${(error as Error).message})\n` +
        `--- last lines of ${logFile} ---\n${tail(logFile, 60)}`,
      { cause: error },
    );
  } finally {
    closeSync(logFd);
  }
  const index = path.join(adminBuildDir, "index.html");
  if (!existsSync(index)) throw new Error(`ensureAdminBuild: \`strapi build\` made no ${index}; see ${logFile}`);
  return { built: true, ms: Date.now() - started };
}

export async function startCms(opts: CmsOptions): Promise<CmsHandle> {
  if (opts.postgresUrl && opts.fresh)
    throw new Error("startCms: `fresh` is for SQLite; make a new PostgreSQL database");
  const dbFile = path.resolve(opts.dbFile);
  const tokenFile = `${dbFile}.readonly-token`;
  // Uploads go next to the database, not into cms/public: a fresh start does not pile up files there.
  const publicDir = `${dbFile}.public`;
  const logFile = path.resolve(opts.logFile ?? `${dbFile}.log`);
  mkdirSync(path.dirname(dbFile), { recursive: true });
  mkdirSync(path.dirname(logFile), { recursive: true });
  if (opts.fresh) {
    for (const file of [dbFile, `${dbFile}-journal`, `${dbFile}-wal`, `${dbFile}-shm`, tokenFile, publicDir])
      rmSync(file, { force: true, recursive: true });
    if (!opts.firstStart) copyTemplate(await cmsTemplate(), dbFile);
  }
  mkdirSync(path.join(publicDir, "uploads"), { recursive: true });

  const url = `http://127.0.0.1:${opts.port}`;
  if (await isHealthy(url)) {
    throw new Error(`startCms: something already answers on ${url}; pick another port.`);
  }

  // A count that timing noise cannot blur (scripts/test-all.sh prints it): one line per start.
  if (process.env.TEST_CMS_START_LOG) {
    const kind = opts.postgresUrl
      ? "PostgreSQL"
      : !opts.fresh
        ? "existing database"
        : opts.firstStart
          ? "first start (seeds)"
          : "template copy";
    appendFileSync(process.env.TEST_CMS_START_LOG, `${kind}\n`);
  }
  const logFd = openSync(logFile, "a");
  let child: ChildProcess;
  try {
    child = spawn(process.execPath, ["server.js"], {
      cwd: opts.root ?? cmsRoot,
      env: {
        ...process.env,
        ...TEST_SECRETS,
        NODE_ENV: "development",
        HOST: "127.0.0.1",
        PORT: String(opts.port),
        ...(opts.postgresUrl
          ? { DATABASE_CLIENT: "postgres", DATABASE_URL: opts.postgresUrl }
          : { DATABASE_CLIENT: "sqlite", DATABASE_FILENAME: dbFile }),
        CMS_READONLY_TOKEN_FILE: tokenFile,
        CMS_PUBLIC_DIR: publicDir,
        SERVE_ADMIN: opts.serveAdmin ? "true" : "false",
        STRAPI_TELEMETRY_DISABLED: "true",
        STRAPI_DISABLE_UPDATE_NOTIFICATION: "true",
        BROWSER: "none",
        FORCE_COLOR: "0",
        ...opts.env,
      },
      stdio: ["ignore", logFd, logFd],
      // Own process group: stop() signals the whole group.
      detached: true,
    });
  } finally {
    closeSync(logFd);
  }

  let exitCode: number | null = null;
  let exitSignal: NodeJS.Signals | null = null;
  const exited = new Promise<void>((resolve) => {
    child.once("exit", (code, signal) => {
      exitCode = code;
      exitSignal = signal;
      resolve();
    });
  });
  let spawnError: Error | undefined;
  child.once("error", (error) => (spawnError = error));

  const stop = () => stopGroup(child, exited);
  const fail = async (reason: string): Promise<never> => {
    await stop();
    throw new Error(`startCms: ${reason}\n--- last lines of ${logFile} ---\n${tail(logFile, 60)}`);
  };

  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (spawnError) return fail(`could not spawn Strapi: ${spawnError.message}`);
    if (child.exitCode !== null || exitCode !== null || exitSignal !== null) {
      return fail(`Strapi exited during start (code ${exitCode ?? child.exitCode}, signal ${exitSignal ?? "none"})`);
    }
    if ((await isHealthy(url)) && existsSync(tokenFile)) {
      const token = readFileSync(tokenFile, "utf8").trim();
      if (token) return { url, token, dbFile, stop };
    }
    if (Date.now() > deadline)
      return fail(`no healthy CMS with a token file (${tokenFile}) after ${START_TIMEOUT_MS / 1000} s`);
    await sleep(250);
  }
}

/**
 * The seeded template: a database as an empty one's first start leaves it (demo content, admin,
 * read-only token, the Editor role's grants), with its token file and uploads, made once per
 * version of the CMS and copied for each fresh start (about 2 s less per start than seeding;
 * tests/integration/cms-seed.test.ts checks that a copy starts as the real first start does).
 * Kept in node_modules/.cache/cms-test-template/<key>, the key a hash of everything a seeded
 * database depends on (cmsTemplateKey): a change to the CMS's code, configuration, migrations
 * or packages makes a new one. Only the users-permissions settings that the first start derives
 * from the environment (CLIENT_URL, SITE_NAME, CMS_EMAIL_CONFIRMATION, ...) are taken out of the
 * template, with their "applied" marker: each copy's start writes them from its own environment,
 * as on a first start (Strapi's defaults, then cms auth-settings' first-start plan).
 */
export function cmsTemplate(): Promise<string> {
  return (templateBuilt ??= buildTemplate().catch((error: unknown) => {
    templateBuilt = undefined;
    throw error;
  }));
}
let templateBuilt: Promise<string> | undefined;

const templateRoot = path.join(cmsRoot, "../node_modules/.cache/cms-test-template");
/** Store keys (strapi_core_store_settings) each copy's first start writes from its own environment. */
const ENVIRONMENT_SETTINGS = [
  "plugin_users-permissions_advanced",
  "plugin_users-permissions_email",
  "plugin_users-permissions_site_defaults_applied",
];
/** Bump when what buildTemplate() does changes. */
const TEMPLATE_FORMAT = "1";

/** A hash of what a seeded test database depends on: the CMS's sources, configuration, packages, the test secrets. */
export function cmsTemplateKey(): string {
  const hash = createHash("sha256").update(TEMPLATE_FORMAT).update(JSON.stringify(TEST_SECRETS));
  hash.update(JSON.stringify(ENVIRONMENT_SETTINGS));
  const add = (file: string) => {
    const stat = statSync(file, { throwIfNoEntry: false });
    if (!stat) return;
    if (stat.isDirectory()) {
      for (const entry of readdirSync(file).sort()) {
        if (entry !== "node_modules" && entry !== ".cache") add(path.join(file, entry));
      }
    } else {
      hash.update(`\0${path.relative(cmsRoot, file)}\0`).update(readFileSync(file));
    }
  };
  for (const part of ["src", "config", "database", "providers", "server.js", "package.json", "package-lock.json"])
    add(path.join(cmsRoot, part));
  return hash.digest("hex").slice(0, 20);
}

async function buildTemplate(): Promise<string> {
  const key = cmsTemplateKey();
  const dir = path.join(templateRoot, key);
  if (existsSync(path.join(dir, "complete"))) return dir;
  mkdirSync(templateRoot, { recursive: true });
  // Built aside and renamed into place: two runs building at once never see half a template.
  const building = mkdtempSync(path.join(templateRoot, `${key}.building-`));
  const dbFile = path.join(building, "cms.db");
  const cms = await startCms({ port: await getPort(), dbFile, fresh: true, firstStart: true });
  await cms.stop();
  const Database = createRequire(import.meta.url)(path.join(cmsRoot, "node_modules/better-sqlite3")) as new (
    file: string,
  ) => { prepare(sql: string): { run(...args: unknown[]): unknown }; pragma(sql: string): unknown; close(): void };
  const db = new Database(dbFile);
  try {
    const remove = db.prepare("DELETE FROM strapi_core_store_settings WHERE key = ?");
    for (const storeKey of ENVIRONMENT_SETTINGS) remove.run(storeKey);
    db.pragma("wal_checkpoint(TRUNCATE)");
  } finally {
    db.close();
  }
  rmSync(`${dbFile}.log`, { force: true });
  writeFileSync(path.join(building, "complete"), `${key}\n`);
  try {
    renameSync(building, dir);
  } catch (error) {
    // Another run finished the same template first: use it.
    rmSync(building, { recursive: true, force: true });
    if (!existsSync(path.join(dir, "complete"))) throw error;
  }
  // Templates of earlier versions of the CMS, and builds a killed run left, once a day old (a run
  // on another version of cms/ in the same tree may still be copying its template).
  for (const entry of readdirSync(templateRoot)) {
    const other = path.join(templateRoot, entry);
    if (entry !== key && Date.now() - statSync(other).mtimeMs > 86_400_000)
      rmSync(other, { recursive: true, force: true });
  }
  return dir;
}

/** The template's database, token file and uploads, as `dbFile` and the files next to it. */
export function copyTemplate(dir: string, dbFile: string): void {
  const source = path.join(dir, "cms.db");
  copyFileSync(source, dbFile);
  copyFileSync(`${source}.readonly-token`, `${dbFile}.readonly-token`);
  cpSync(`${source}.public`, `${dbFile}.public`, { recursive: true });
}

async function isHealthy(url: string): Promise<boolean> {
  try {
    const response = await fetch(`${url}/_health`, { signal: AbortSignal.timeout(2_000) });
    return response.status === 204;
  } catch {
    return false;
  }
}

async function stopGroup(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const signal = (sig: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, sig);
    } catch {
      // already gone
    }
  };
  signal("SIGTERM");
  const timer = setTimeout(() => signal("SIGKILL"), STOP_GRACE_MS);
  await exited;
  clearTimeout(timer);
  // Strapi may leave helpers in the group after the main process exits.
  signal("SIGKILL");
}

function tail(file: string, lines: number): string {
  try {
    return readFileSync(file, "utf8").split("\n").slice(-lines).join("\n");
  } catch {
    return "(no log)";
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
