import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, rmSync } from "node:fs";
import path from "node:path";

import { stopProcessGroup } from "./app-server.ts";
import { until } from "./wait.ts";

/**
 * A real Groonga (Debian's groonga-bin) serving its HTTP interface on loopback, on a database in
 * `dir` made at the first start and kept across a stop and a start (what a site's Groonga that
 * went down and came back has). The site-search plugin's Groonga store talks to it (GROONGA_URL).
 */
export class GroongaServer {
  private child: ChildProcess | undefined;

  constructor(
    readonly port: number,
    private readonly dir: string,
  ) {}

  get url() {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    if (!existsSync("/usr/bin/groonga")) {
      throw new Error("groonga is missing: run scripts/install-system-deps.sh (npm run test:all does).");
    }
    mkdirSync(this.dir, { recursive: true });
    const db = path.join(this.dir, "db");
    this.child = spawn(
      "/usr/bin/groonga",
      [
        ...["-s", "--protocol", "http", "--bind-address", "127.0.0.1", "--port", String(this.port)],
        ...["--log-path", path.join(this.dir, "groonga.log"), "--query-log-path", path.join(this.dir, "query.log")],
        ...(existsSync(db) ? [] : ["-n"]),
        db,
      ],
      { stdio: "ignore", detached: true },
    );
    const exited = new Promise<never>((_, reject) =>
      this.child!.once("exit", (code) => reject(new Error(`groonga exited with ${code}; see ${this.dir}/groonga.log`))),
    );
    exited.catch(() => {});
    await Promise.race([
      until(`groonga to answer on ${this.port}`, () => this.answers(), Boolean, { timeoutMs: 15_000, intervalMs: 100 }),
      exited,
    ]);
  }

  async stop(): Promise<void> {
    if (this.child) await stopProcessGroup(this.child);
    this.child = undefined;
  }

  /** Removes its database (stopped first): the next start makes a new, empty one, as a Groonga whose disk was lost. */
  removeDatabase(): void {
    if (this.child) throw new Error("GroongaServer: stop it before removing its database");
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** Stops the process without closing its port (SIGSTOP): connections are accepted and never answered, as by a Groonga stuck under load. */
  pause(): void {
    if (this.child?.pid) process.kill(this.child.pid, "SIGSTOP");
  }

  resume(): void {
    if (this.child?.pid) process.kill(this.child.pid, "SIGCONT");
  }

  private async answers(): Promise<boolean> {
    try {
      const response = await fetch(`${this.url}/d/status`, { signal: AbortSignal.timeout(1_000) });
      return response.ok;
    } catch {
      return false;
    }
  }
}
