import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

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
 * token's plain key to a file next to the database; that key is returned as `token`. Uploads
 * (the seed's image, files a test uploads) go to `<dbFile>.public/uploads`, removed with a
 * fresh database, so test runs leave nothing in cms/public.
 */

const cmsRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../cms");
const START_TIMEOUT_MS = 180_000;

/**
 * Fixed secrets for test databases, so a test run never reads or writes cms/.env (and a
 * token created in one run still matches its hash in the next run on the same database).
 */
export const TEST_SECRETS: Record<string, string> = {
  APP_KEYS: "test-app-key-1,test-app-key-2",
  API_TOKEN_SALT: "test-api-token-salt",
  ADMIN_JWT_SECRET: "test-admin-jwt-secret",
  TRANSFER_TOKEN_SALT: "test-transfer-token-salt",
  JWT_SECRET: "test-users-permissions-jwt-secret",
  ENCRYPTION_KEY: "test-encryption-key-0123456789ab",
};
const STOP_GRACE_MS = 10_000;

export interface CmsHandle {
  url: string;
  token: string;
  dbFile: string;
  stop(): Promise<void>;
}

export interface CmsOptions {
  port: number;
  /** SQLite file; made absolute. */
  dbFile: string;
  /** Delete the database (and its token file) first. */
  fresh?: boolean;
  /** Extra environment for the CMS (wins over the defaults below). */
  env?: Record<string, string>;
  /** Where the CMS's stdout/stderr go; default: `<dbFile>.log`. */
  logFile?: string;
  /**
   * Serve the admin UI at /admin (SERVE_ADMIN=true); default false. Needs the admin build:
   * call ensureAdminBuild() first.
   */
  serveAdmin?: boolean;
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
  }
  mkdirSync(path.join(publicDir, "uploads"), { recursive: true });

  const url = `http://127.0.0.1:${opts.port}`;
  if (await isHealthy(url)) {
    throw new Error(`startCms: something already answers on ${url}; pick another port.`);
  }

  const logFd = openSync(logFile, "a");
  let child: ChildProcess;
  try {
    child = spawn(process.execPath, ["server.js"], {
      cwd: cmsRoot,
      env: {
        ...process.env,
        ...TEST_SECRETS,
        NODE_ENV: "development",
        HOST: "127.0.0.1",
        PORT: String(opts.port),
        DATABASE_CLIENT: "sqlite",
        DATABASE_FILENAME: dbFile,
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
