import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Starts the site's server as a real process. Production: what `npm start` runs, `node` on the
 * bundled build/server-entry.mjs (so `npm run build` first). Development: server/index.ts
 * through tsx, as `npm run dev` does.
 */

export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

export interface AppHandle {
  url: string;
  output(): string;
  stop(): Promise<void>;
}

export interface AppOptions {
  port: number;
  env: Record<string, string>;
  /** production (needs `npm run build` first) or development (Vite middleware). */
  mode?: "production" | "development";
  /** Run the site of another copy of the project (tests/support/project-copy.ts); default this one. */
  root?: string;
}

export function spawnApp(options: AppOptions): { child: ChildProcess; output: () => string } {
  let output = "";
  const [command, args] =
    (options.mode ?? "production") === "production"
      ? [process.execPath, ["build/server-entry.mjs"]]
      : [path.join(projectRoot, "node_modules/.bin/tsx"), ["--conditions=@cms-site/source", "server/index.ts"]];
  const child = spawn(command, args, {
    cwd: options.root ?? projectRoot,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: options.mode ?? "production",
      PORT: String(options.port),
      HOST: "127.0.0.1",
      APP_PUBLIC_URL: `http://127.0.0.1:${options.port}`,
      SESSION_AUTH_SECRET: "test-session-secret-0123456789-0123456789",
      // Tests that count MISS and HIT start cold; the warm-start test turns it on.
      CACHE_WARM_PAGES: "0",
      // Tests post forms within milliseconds of opening them: no minimum fill time (the bot check's
      // token and honeypot still apply). tests/integration/auth-bot-check.test.ts runs the real default.
      AUTH_FORM_MIN_FILL_MS: "0",
      ...options.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}

export async function startApp(options: AppOptions): Promise<AppHandle> {
  const { child, output } = spawnApp(options);
  const url = `http://127.0.0.1:${options.port}`;
  const deadline = Date.now() + 60_000;
  while (!output().includes("Site ready at")) {
    if (child.exitCode !== null) throw new Error(`The site exited (${child.exitCode}) during start:\n${output()}`);
    if (Date.now() > deadline) throw new Error(`The site did not start within 60 s:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    output,
    stop: () => stopProcessGroup(child),
  };
}

export async function stopProcessGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  process.kill(-child.pid, "SIGTERM");
  const timer = setTimeout(() => {
    if (child.exitCode === null && child.pid) process.kill(-child.pid, "SIGKILL");
  }, 10_000);
  await exited;
  clearTimeout(timer);
}
