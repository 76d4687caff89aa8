import getPort from "../support/free-port.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { startApp, type AppHandle } from "../support/app-server.ts";
import { RedisServer } from "../support/redis-server.ts";
import { StandInCms } from "../support/stand-in-cms.ts";
import { until } from "../support/wait.ts";

// /healthz and /readyz of the production server (build/server-entry.mjs, what `npm start`
// runs) against the stand-in CMS and a real Redis, each stopped and started again.
let redis: RedisServer;
let cms: StandInCms;
let app: AppHandle;

beforeAll(async () => {
  redis = new RedisServer(await getPort());
  await redis.start();
  cms = new StandInCms(await getPort());
  await cms.start();
  cms.setPage({ fullPath: "/company", title: "Company" });
  app = await startApp({
    port: await getPort(),
    env: { CMS_URL: cms.url, CMS_REST_READONLY_API_KEY: "stand-in-token-0123456789", REDIS_URL: redis.url },
  });
}, 60_000);

afterAll(async () => {
  await app?.stop();
  await cms?.stop();
  await redis?.stop();
});

interface Answer {
  status: number;
  headers: Headers;
  text: string;
  body: { status: string; down?: string[]; checks?: Record<string, { status: string }> };
}

async function get(path: string): Promise<Answer> {
  const response = await fetch(`${app.url}${path}`);
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, body: JSON.parse(text) as Answer["body"] };
}

/** Asks /readyz until it answers `status` (a result is reused for a second; Redis reconnects with a backoff). */
const readyzUntil = (status: number): Promise<Answer> =>
  until(
    `/readyz to answer ${status}`,
    () => get("/readyz"),
    (answer) => answer.status === status,
    {
      intervalMs: 200,
    },
  );

describe("health and readiness", () => {
  it("everything up: /healthz 200, /readyz 200 naming each check, never cached", async () => {
    const health = await get("/healthz");
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ status: "ok" });
    const ready = await readyzUntil(200);
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({
      status: "ready",
      down: [],
      checks: { cms: { status: "up" }, redis: { status: "up" } },
    });
    expect(cms.requests).toContain("/_health");
    for (const answer of [health, ready, await get("/healthz"), await get("/readyz")]) {
      expect(answer.headers.get("cache-control")).toBe("no-store");
      expect(answer.headers.get("content-type")).toMatch(/^application\/json/);
      // Not the page cache's (it marks what it handles with x-cache), and no address of a dependency.
      expect(answer.headers.get("x-cache")).toBeNull();
      expect(answer.text).not.toContain("127.0.0.1");
      expect(answer.text).not.toContain(String(cms.port));
      expect(answer.text).not.toContain(String(redis.port));
    }
  });

  it("answers every probe of a burst (no rate limit), and a burst costs the CMS one /_health call", async () => {
    // Past the 1 s for which the last result is reused: that reuse is what is under test.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const before = cms.requests.filter((path) => path === "/_health").length;
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, index) => get(index % 2 ? "/readyz" : "/healthz")),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: 40 }, () => 200));
    expect(cms.requests.filter((path) => path === "/_health").length - before).toBe(1);
  });

  it("CMS stopped: /readyz 503 naming the CMS, /healthz still 200; back when the CMS is", async () => {
    await cms.stop();
    try {
      const ready = await readyzUntil(503);
      expect(ready.status).toBe(503);
      expect(ready.body.status).toBe("not ready");
      expect(ready.body.down).toEqual(["cms"]);
      expect(ready.body.checks?.redis).toEqual({ status: "up" });
      expect(ready.headers.get("cache-control")).toBe("no-store");
      expect(ready.text).not.toContain(String(cms.port));
      expect((await get("/healthz")).status).toBe(200);
      // The site logs the change once, without the address.
      expect(app.output()).toContain("[readyz] cms: down (unreachable)");
    } finally {
      await cms.start();
    }
    expect((await readyzUntil(200)).status).toBe(200);
    expect(app.output()).toContain("[readyz] cms: up");
  });

  it("Redis stopped: /readyz 503 naming Redis, /healthz still 200; back when Redis is", async () => {
    await redis.stop();
    try {
      const ready = await readyzUntil(503);
      expect(ready.status).toBe(503);
      expect(ready.body.down).toEqual(["redis"]);
      expect(ready.body.checks?.cms).toEqual({ status: "up" });
      expect(ready.text).not.toContain(String(redis.port));
      expect((await get("/healthz")).status).toBe(200);
      // Pages are still served meanwhile (from the local cache layer).
      expect((await fetch(`${app.url}/company`)).status).toBe(200);
    } finally {
      await redis.start();
    }
    expect((await readyzUntil(200)).status).toBe(200);
  }, 30_000);
});
