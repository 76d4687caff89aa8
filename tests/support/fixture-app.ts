import { execFile, spawn } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";

import { projectRoot, stopProcessGroup } from "./app-server.ts";
import freePort from "./free-port.ts";

const run = promisify(execFile);

/** The React Router app that is not this site (tests/fixtures/rr-fixture-app). */
const FIXTURE = path.join(projectRoot, "tests/fixtures/rr-fixture-app");

export interface FixtureAppOptions {
  /** A Strapi 5 (or a stand-in) serving `/api/notes`. */
  cmsUrl: string;
  /** A read-only API token for that CMS; none for a CMS whose notes are public. */
  cmsToken?: string;
  /** What POST /api/cms-revalidate takes as its Bearer secret. */
  revalidateSecret: string;
  /** The packages to install from their tarballs (packWorkspacePackage): cache-tags and page-cache. */
  tarballs: string[];
}

export interface FixtureApp {
  url: string;
  output(): string;
  /** Stops the server and removes its copy. */
  stop(): Promise<void>;
}

/**
 * A copy of the fixture in a temporary directory, with the tarballs and its dependencies installed
 * by npm as any app would install them (the versions of the site's lock, so npm's cache serves
 * them), built (`react-router build`), and started (`node server.js`) on a free port.
 */
export async function startFixtureApp(options: FixtureAppOptions): Promise<FixtureApp> {
  const dir = mkdtempSync(path.join(tmpdir(), "rr-fixture-app-"));
  try {
    cpSync(FIXTURE, dir, { recursive: true, filter: (source) => !/[\\/](node_modules|build)$/.test(source) });
    const npm = (args: string[]) => run("npm", args, { cwd: dir, maxBuffer: 16 * 1024 * 1024 });
    await npm(["install", "--prefer-offline", "--no-audit", "--no-fund", ...options.tarballs]);
    await npm(["run", "build"]);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const port = await freePort();
  let output = "";
  const child = spawn(process.execPath, ["server.js"], {
    cwd: dir,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: "production",
      PORT: String(port),
      CMS_URL: options.cmsUrl,
      ...(options.cmsToken ? { CMS_TOKEN: options.cmsToken } : {}),
      REVALIDATE_SECRET: options.revalidateSecret,
    },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const stop = async () => {
    await stopProcessGroup(child);
    rmSync(dir, { recursive: true, force: true });
  };
  const ready = new Promise<void>((resolve, reject) => {
    const seen = () => output.includes("rr-fixture-app ready");
    child.stdout?.on("data", () => seen() && resolve());
    child.once("exit", (code) => reject(new Error(`The fixture app exited (${code}) during start:\n${output}`)));
  });
  const timeout = new Promise<never>((_, reject) =>
    setTimeout(() => reject(new Error(`The fixture app did not start within 30 s:\n${output}`)), 30_000).unref(),
  );
  try {
    await Promise.race([ready, timeout]);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `http://127.0.0.1:${port}`, output: () => output, stop };
}
