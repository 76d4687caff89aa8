// A PostgreSQL server of Debian's packages (scripts/install-system-deps.sh installs them) in a
// data directory of its own, on loopback, for the tests and `npm run start:cluster -- --cms 2`:
// never the machine's own cluster. initdb and postgres refuse to run as root: as root they run
// as the `postgres` system user (runuser), which then owns the data directory.
import { execFileSync, spawn } from "node:child_process";
import {
  chmodSync,
  chownSync,
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  rmSync,
  statSync,
} from "node:fs";
import { createConnection } from "node:net";
import path from "node:path";

const SYSTEM_USER = "postgres";

/** The directory of Debian's PostgreSQL programs (the newest installed), or null. */
export function postgresBinDir() {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((version) => existsSync(path.join(root, version, "bin/postgres")))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? path.join(root, versions[0], "bin") : null;
}

const isRoot = () => process.getuid?.() === 0;

/** [command, args] running `program` as the user PostgreSQL runs as here. */
function asServerUser(program, args) {
  return isRoot() ? ["runuser", ["-u", SYSTEM_USER, "--", program, ...args]] : [program, args];
}

/**
 * As root: the data directory belongs to the server's user, and every directory above it lets
 * that user pass (o+x, not o+r: nothing is listed).
 */
function ownedByServerUser(dir) {
  if (!isRoot()) return;
  for (let above = path.dirname(dir); above !== path.dirname(above); above = path.dirname(above)) {
    const mode = statSync(above).mode;
    if ((mode & 0o001) === 0) chmodSync(above, (mode & 0o7777) | 0o001);
  }
  const uid = Number(execFileSync("id", ["-u", SYSTEM_USER], { encoding: "utf8" }).trim());
  const gid = Number(execFileSync("id", ["-g", SYSTEM_USER], { encoding: "utf8" }).trim());
  chownSync(dir, uid, gid);
}

const answers = (port) =>
  new Promise((resolve) => {
    const socket = createConnection(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.end();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });

/**
 * Starts PostgreSQL on 127.0.0.1:`port` with its data in `dataDir` (made by initdb when it has
 * none; trust authentication on loopback, user `postgres`), and creates `database` when missing.
 * `durable: false` (tests) turns fsync off. Resolves with `{ url, stop() }`; `url` is a
 * postgres:// URL of `database`. stop() ends the server (fast shutdown) and waits for it.
 */
export async function startPostgres({ port, dataDir, database = "strapi", durable = true, logFile }) {
  const bin = postgresBinDir();
  if (!bin) throw new Error("PostgreSQL is missing: run scripts/install-system-deps.sh (npm run test:all does).");
  mkdirSync(dataDir, { recursive: true });
  ownedByServerUser(dataDir);
  if (!existsSync(path.join(dataDir, "PG_VERSION"))) {
    const [command, args] = asServerUser(path.join(bin, "initdb"), [
      ...["-D", dataDir, "-U", "postgres", "--auth=trust", "--encoding=UTF8", "--locale=C.UTF-8"],
      ...(durable ? [] : ["--no-sync"]),
    ]);
    try {
      execFileSync(command, args, { stdio: "pipe" });
    } catch (error) {
      throw new Error(`initdb failed: ${error.stderr?.toString().trim() || error.message}`, { cause: error });
    }
  }
  const settings = [
    ...["-c", `port=${port}`, "-c", "listen_addresses=127.0.0.1", "-c", `unix_socket_directories=${dataDir}`],
    ...(durable ? [] : ["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"]),
  ];
  const [command, args] = asServerUser(path.join(bin, "postgres"), ["-D", dataDir, ...settings]);
  const log = logFile ?? path.join(dataDir, "server.log");
  if (logFile) mkdirSync(path.dirname(logFile), { recursive: true });
  const fd = openSync(log, "a");
  // Its own process group: stop() signals runuser and the server alike.
  const child = spawn(command, args, { stdio: ["ignore", fd, fd], detached: true });
  closeSync(fd);
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const deadline = Date.now() + 30_000;
  while (!(await answers(port))) {
    if (child.exitCode !== null) throw new Error(`postgres exited during start (code ${child.exitCode}); see ${log}`);
    if (Date.now() > deadline) throw new Error(`postgres did not start on ${port} within 30 s; see ${log}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const psql = (sql) =>
    execFileSync(
      path.join(bin, "psql"),
      ["-h", "127.0.0.1", "-p", String(port), "-U", "postgres", "-d", "postgres", "-tAc", sql],
      { encoding: "utf8" },
    ).trim();
  // The socket accepts before the server takes queries: asked again until it answers.
  for (;;) {
    try {
      if (psql(`SELECT 1 FROM pg_database WHERE datname = '${database}'`) !== "1")
        psql(`CREATE DATABASE "${database}"`);
      break;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
    const signal = (name) => {
      try {
        process.kill(-child.pid, name);
      } catch {
        // already gone
      }
    };
    // SIGINT: PostgreSQL's fast shutdown (SIGTERM would wait for every client to leave).
    signal("SIGINT");
    const timer = setTimeout(() => signal("SIGKILL"), 15_000);
    await exited;
    clearTimeout(timer);
  };
  return { url: `postgres://postgres@127.0.0.1:${port}/${database}`, port, database, stop };
}

/** Removes a data directory startPostgres made (after stop()). */
export function removeDataDir(dataDir) {
  if (existsSync(dataDir) && statSync(dataDir).isDirectory()) rmSync(dataDir, { recursive: true, force: true });
}
