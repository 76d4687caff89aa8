import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

import type { RevalidationProfile } from "@cms-site/page-cache";
import express from "express";
import getPort from "get-port";
import { afterEach, describe, expect, it } from "vitest";

import { parseEnv } from "../app/lib/env.server.ts";
import type { Log, LogFields } from "../app/lib/log.ts";
import { memoryLog } from "../tests/support/memory-log.ts";
import { StandInCms } from "../tests/support/stand-in-cms.ts";
import { operationalRoutes, type OperationalOptions } from "./operational-routes.ts";

// The routes in-process against the stand-in CMS; the real server, Redis included, is tested
// in tests/integration/operational-routes.test.ts.
const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

/** The configuration of a test process whose CMS is at `cmsUrl`. */
function configFor(cmsUrl: string, more: Record<string, string> = {}) {
  return parseEnv({ NODE_ENV: "test", CMS_URL: cmsUrl, CMS_REST_READONLY_API_KEY: "x".repeat(20), ...more });
}

/** A logger that keeps the message of each line. */
function linesLog(lines: string[]): Log {
  const keep = (first: string | LogFields, message?: string) =>
    void lines.push(typeof first === "string" ? first : String(message));
  const log: Log = { error: keep, warn: keep, info: keep, debug: keep, child: () => log };
  return log;
}

async function serve(options: Omit<OperationalOptions, "log"> & Partial<Pick<OperationalOptions, "log">>) {
  const routes = operationalRoutes({ log: memoryLog(), ...options });
  const app = express();
  app.use(routes.router);
  app.use((_req, res) => void res.status(404).send("not an operational route"));
  const server: Server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanup.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const get = async (path: string) => {
    const response = await fetch(`${url}${path}`);
    return {
      status: response.status,
      cacheControl: response.headers.get("cache-control"),
      body: await response.json(),
    };
  };
  return { routes, get, url };
}

async function standInCms() {
  const cms = new StandInCms(await getPort());
  await cms.start();
  cleanup.push(() => cms.stop());
  return cms;
}

describe("operationalRoutes", () => {
  it("without REDIS_URL: ready when the CMS answers, Redis reported as not configured", async () => {
    const cms = await standInCms();
    const { get } = await serve({ config: configFor(cms.url), reuseMs: 0 });
    expect(await get("/readyz")).toEqual({
      status: 200,
      cacheControl: "no-store",
      body: { status: "ready", down: [], checks: { cms: { status: "up" }, redis: { status: "not configured" } } },
    });
    expect(await get("/healthz")).toEqual({ status: 200, cacheControl: "no-store", body: { status: "ok" } });
  });

  it("a CMS slower than the timeout or answering an error is down; the log says so once per change", async () => {
    const cms = await standInCms();
    const lines: string[] = [];
    const { get } = await serve({
      config: configFor(cms.url),
      timeoutMs: 200,
      reuseMs: 0,
      log: linesLog(lines),
    });
    cms.delayMs = 1_000;
    const slow = await get("/readyz");
    expect(slow.status).toBe(503);
    expect(slow.body).toMatchObject({
      status: "not ready",
      down: ["cms"],
      checks: { cms: { status: "down", reason: "no answer within 200 ms" } },
    });
    await get("/readyz");
    cms.delayMs = 0;
    cms.mode = "error";
    expect((await get("/readyz")).body.checks.cms).toEqual({ status: "down", reason: "answered 500" });
    cms.mode = "healthy";
    expect((await get("/readyz")).status).toBe(200);
    expect(lines).toEqual([
      "[readyz] cms: down (no answer within 200 ms)",
      "[readyz] cms: down (answered 500)",
      "[readyz] cms: up",
    ]);
  });

  it("once draining, /readyz answers 503 and /healthz still 200", async () => {
    const cms = await standInCms();
    const { routes, get } = await serve({ config: configFor(cms.url) });
    expect((await get("/readyz")).status).toBe(200);
    routes.drain();
    expect(await get("/readyz")).toEqual({
      status: 503,
      cacheControl: "no-store",
      body: { status: "shutting down", down: [] },
    });
    expect((await get("/healthz")).status).toBe(200);
  });

  it("reuses a result for reuseMs and runs one check at a time", async () => {
    const cms = await standInCms();
    cms.delayMs = 100;
    const { get } = await serve({ config: configFor(cms.url), reuseMs: 60_000 });
    await Promise.all(Array.from({ length: 10 }, () => get("/readyz")));
    await get("/readyz");
    expect(cms.requests.filter((path) => path === "/_health")).toHaveLength(1);
  });

  it("POST /api/cms-revalidate acts on the cache's revalidator directly, behind the secret; GET is 405", async () => {
    const secret = "revalidate-secret-0123456789";
    const calls: Array<[string, string, RevalidationProfile | undefined]> = [];
    const cache = {
      metrics: { contentType: "text/plain", metrics: async () => "" } as never,
      revalidator: {
        revalidatePath: (path: string, profile?: RevalidationProfile) => void calls.push(["path", path, profile]),
        revalidateTag: (tag: string, profile: RevalidationProfile) => void calls.push(["tag", tag, profile]),
      },
    };
    const lines: string[] = [];
    const options = { cache, log: linesLog(lines) };
    const { url } = await serve({
      config: configFor("http://127.0.0.1:9", { CMS_REVALIDATE_SECRET: secret }),
      ...options,
    });
    const post = (authorization: string) =>
      fetch(`${url}/api/cms-revalidate`, {
        method: "POST",
        headers: { authorization, "content-type": "application/json" },
        body: JSON.stringify({
          uid: "api::page.page",
          next: { fullPaths: ["/company"], tags: ["cms:api::navbar.navbar"] },
        }),
      });
    expect((await post("Bearer wrong-secret-0123456789")).status).toBe(401);
    expect(calls).toEqual([]);
    const ok = await post(`Bearer ${secret}`);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({
      revalidated: true,
      uid: "api::page.page",
      paths: ["/en/company", "/company"],
      tags: ["cms:api::navbar.navbar"],
      expire: false,
    });
    expect(calls).toEqual([
      ["path", "/en/company", "max"],
      ["path", "/company", "max"],
      ["tag", "cms:api::navbar.navbar", "max"],
    ]);
    const get = await fetch(`${url}/api/cms-revalidate`);
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
    expect(lines.some((line) => line.includes("[revalidate] refused"))).toBe(true);
  });
});
