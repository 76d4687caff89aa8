import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { createConnection } from "node:net";

import { stopProcessGroup } from "./app-server.ts";

/** A real Redis (Debian's redis-server) on loopback, without persistence, that a test can stop and start again. */
export class RedisServer {
  private child: ChildProcess | undefined;

  constructor(readonly port: number) {}

  get url() {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    if (!existsSync("/usr/bin/redis-server")) {
      throw new Error("redis-server is missing: run scripts/install-system-deps.sh (npm run test:all does).");
    }
    this.child = spawn(
      "/usr/bin/redis-server",
      [
        ...[
          "--port",
          String(this.port),
          "--bind",
          "127.0.0.1",
          "--save",
          "",
          "--appendonly",
          "no",
          "--protected-mode",
          "no",
        ],
        // As every Redis the project ships: bounded, least recently used keys evicted first.
        ...["--maxmemory", "64mb", "--maxmemory-policy", "allkeys-lru"],
      ],
      { stdio: "ignore", detached: true },
    );
    const deadline = Date.now() + 10_000;
    while (!(await this.answers())) {
      if (Date.now() > deadline) throw new Error(`redis-server did not start on ${this.port}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  async stop(): Promise<void> {
    if (this.child) await stopProcessGroup(this.child);
    this.child = undefined;
  }

  private answers(): Promise<boolean> {
    return new Promise((resolve) => {
      const socket = createConnection(this.port, "127.0.0.1");
      socket.once("connect", () => {
        socket.end();
        resolve(true);
      });
      socket.once("error", () => resolve(false));
    });
  }
}
