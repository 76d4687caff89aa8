import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { closeSync, cpSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { projectRoot } from "./app-server.ts";
import freePort from "./free-port.ts";
import { until } from "./wait.ts";

/**
 * A fresh Strapi 5 project that is not this site (tests/fixtures/strapi-fixture-project: its own
 * package.json, one content type `api::note.note` declared for the site-cache plugin), copied to a
 * temporary folder, installed with npm from the given tarballs (`npm pack` of the plugin and of
 * @cms-site/cache-tags: what a registry would serve; tests/support/packed-packages.ts), and started with `strapi start` on a free
 * port: no admin panel is served (config/admin.js), so nothing is built. The notes are written
 * through the admin API (the Content Manager's routes, as an editor's clicks send them) with the
 * first administrator, registered as a new project's first visitor would: Strapi's own document
 * service, so the plugin's document middleware sees each write. packages/strapi-plugin-site-cache/
 * README.md describes the same install step by step.
 *
 * Its own Strapi, not the shared CMS: the point is a project with nothing of this site in it.
 * The install takes 20 to 35 s here (npm's cache serves the same versions as cms/package.json), the start 3 to 10 s.
 */
export interface FreshStrapi {
  url: string;
  /** How long `npm install` and the start took, in ms. */
  installMs: number;
  startMs: number;
  notes: NoteWriter;
  /** The public content API's notes (the fixture's bootstrap lets the Public role read them). */
  publicNotes(): Promise<Array<Record<string, unknown>>>;
  log(): string;
  stop(): Promise<void>;
}

export interface NoteFields {
  title: string;
  slug: string;
  body?: string;
}

/** An editor's writes of notes through the admin API; each answers the document as Strapi returns it. */
export interface NoteWriter {
  /** Creates a draft: nothing is published. */
  create(fields: NoteFields): Promise<{ documentId: string }>;
  /** Publishes the draft, with `fields` saved first (the edit view's Publish after an edit). */
  publish(documentId: string, fields?: Partial<NoteFields>): Promise<void>;
  unpublish(documentId: string): Promise<void>;
}

export interface FreshStrapiOptions {
  /** Where the plugin sends revalidations (its clientUrl). */
  siteUrl: string;
  revalidateSecret: string;
  /** Paths of the packed tarballs to install (the plugin's and @cms-site/cache-tags'). */
  tarballs: string[];
  /** The port to serve on (a free one unless given: a site started beside it may need to know it first). */
  port?: number;
}

const FIXTURE = path.join(projectRoot, "tests/fixtures/strapi-fixture-project");
const INSTALL_TIMEOUT_MS = 600_000;
const START_TIMEOUT_MS = 180_000;
const ADMIN = {
  email: "fixture-admin@example.com",
  password: "Fixture-admin-passw0rd",
  firstname: "Fixture",
  lastname: "Admin",
};

export async function startFreshStrapi({
  siteUrl,
  revalidateSecret,
  tarballs,
  port: givenPort,
}: FreshStrapiOptions): Promise<FreshStrapi> {
  const root = mkdtempSync(path.join(tmpdir(), "fresh-strapi-"));
  const app = path.join(root, "app");
  cpSync(FIXTURE, app, { recursive: true });
  mkdirSync(path.join(app, "public/uploads"), { recursive: true });
  const logFile = path.join(root, "strapi.log");

  const installStarted = Date.now();
  await run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", ...tarballs], app, logFile);
  const installMs = Date.now() - installStarted;

  const port = givenPort ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const startStarted = Date.now();
  const out = openSync(logFile, "a");
  const child = spawn(path.join(app, "node_modules/.bin/strapi"), ["start"], {
    cwd: app,
    env: {
      ...runtimeEnv(),
      HOST: "127.0.0.1",
      PORT: String(port),
      APP_KEYS: "fixture-key-1,fixture-key-2",
      ADMIN_JWT_SECRET: "fixture-admin-jwt-secret",
      API_TOKEN_SALT: "fixture-api-token-salt",
      TRANSFER_TOKEN_SALT: "fixture-transfer-token-salt",
      JWT_SECRET: "fixture-jwt-secret",
      ENCRYPTION_KEY: "fixture-encryption-key-0123456789",
      SITE_URL: siteUrl,
      REVALIDATE_SECRET: revalidateSecret,
      STRAPI_TELEMETRY_DISABLED: "true",
    },
    stdio: ["ignore", out, out],
  });
  closeSync(out);
  const log = () => readFileSync(logFile, "utf8");
  const exited = once(child, "exit");
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      // Strapi closes its database and server first; one that hangs is not left behind.
      const kill = setTimeout(() => child.kill("SIGKILL"), 15_000);
      await exited;
      clearTimeout(kill);
    }
    rmSync(root, { recursive: true, force: true });
  };

  try {
    await until(
      "the fresh Strapi to answer /_health",
      async () => {
        if (child.exitCode !== null) throw new Error(`strapi start exited (${child.exitCode}):\n${log().slice(-3000)}`);
        return fetch(`${url}/_health`, { signal: AbortSignal.timeout(2_000) }).then(
          (response) => response.status,
          () => 0,
        );
      },
      (status) => status === 204,
      { timeoutMs: START_TIMEOUT_MS, intervalMs: 250 },
    );
    const startMs = Date.now() - startStarted;
    const token = await registerFirstAdmin(url);
    return {
      url,
      installMs,
      startMs,
      notes: noteWriter(url, token),
      publicNotes: async () => (await json(await fetch(`${url}/api/notes`), "GET /api/notes")).data,
      log,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The first administrator, as a new project's first visitor registers: → an admin API token. */
async function registerFirstAdmin(url: string): Promise<string> {
  const response = await fetch(`${url}/admin/register-admin`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(ADMIN),
  });
  return (await json(response, "POST /admin/register-admin")).data.token;
}

function noteWriter(url: string, token: string): NoteWriter {
  const base = `${url}/content-manager/collection-types/api::note.note`;
  const send = async (method: string, where: string, body: unknown) =>
    json(
      await fetch(where, {
        method,
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      }),
      `${method} ${where}`,
    );
  return {
    create: async (fields) => ({ documentId: (await send("POST", base, fields)).data.documentId }),
    publish: async (documentId, fields = {}) =>
      void (await send("POST", `${base}/${documentId}/actions/publish`, fields)),
    unpublish: async (documentId) => void (await send("POST", `${base}/${documentId}/actions/unpublish`, {})),
  };
}

async function json(response: Response, what: string) {
  const text = await response.text();
  if (!response.ok) throw new Error(`${what}: ${response.status} ${text.slice(0, 500)}`);
  return JSON.parse(text);
}

/** The tests' own Node (24) first on PATH, for npm and for Strapi's scripts. */
function runtimeEnv(): NodeJS.ProcessEnv {
  return { ...process.env, PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ""}` };
}

/** Runs a command to its end; its output goes to `logFile`; rejects with the log's end on a failure. */
async function run(command: string, args: string[], cwd: string, logFile: string): Promise<void> {
  const out = openSync(logFile, "a");
  const child: ChildProcess = spawn(command, args, { cwd, env: runtimeEnv(), stdio: ["ignore", out, out] });
  closeSync(out);
  const timer = setTimeout(() => child.kill("SIGTERM"), INSTALL_TIMEOUT_MS);
  const [code] = await once(child, "exit");
  clearTimeout(timer);
  if (code !== 0)
    throw new Error(`${command} ${args.join(" ")} failed (${code}):\n${readFileSync(logFile, "utf8").slice(-3000)}`);
}
