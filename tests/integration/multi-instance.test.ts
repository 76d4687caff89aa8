import { request as httpRequest } from "node:http";

import getPort from "../support/free-port.ts";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { startApp, type AppHandle } from "../support/app-server.ts";
import { RedisServer } from "../support/redis-server.ts";
import { StandInCms } from "../support/stand-in-cms.ts";

// Two instances of the production site sharing one real Redis, behind no load balancer:
// the tests send each request to the instance they choose.
const SECRET = "revalidate-secret-0123456789";
const METRICS = "metrics-secret-0123456789";
const redis = new RedisServer(await getPort());
const cms = new StandInCms(await getPort());
let a: AppHandle;
let b: AppHandle;

beforeAll(async () => {
  await redis.start();
  await cms.start();
  for (const [fullPath, title] of [
    ["/company", "Company"],
    ["/positions", "Jobs"],
    ["/careers", "Careers"],
    ["/outage", "Before the outage"],
    ["/hiring", "Hiring"],
  ] as const) {
    cms.setPage({ fullPath, title });
  }
  cms.users.set("ann@example.com", { id: 1, password: "Right-password-1", blocked: false });
  const env = {
    CMS_URL: cms.url,
    CMS_REST_READONLY_API_KEY: "stand-in-token-0123456789",
    CMS_REVALIDATE_SECRET: SECRET,
    METRICS_SECRET: METRICS,
    REDIS_URL: redis.url,
    AUTH_RATE_LIMIT_MAX: "4",
  };
  const [portA, portB] = [await getPort(), await getPort()];
  [a, b] = await Promise.all([startApp({ port: portA, env }), startApp({ port: portB, env })]);
}, 60_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await cms.stop();
  await redis.stop();
});

/** A JSON POST sent from another local address, that is, as another client IP. */
function postFrom(localAddress: string, url: string, body: unknown): Promise<{ status: number; cookies: string[] }> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: "POST",
        localAddress,
        headers: { "content-type": "application/json", origin: target.origin },
      },
      (response) => {
        response.resume();
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, cookies: response.headers["set-cookie"] ?? [] }),
        );
      },
    );
    request.on("error", reject);
    request.end(JSON.stringify(body));
  });
}

async function get(app: AppHandle, path: string) {
  const response = await fetch(`${app.url}${path}`);
  return { status: response.status, cache: response.headers.get("x-cache"), text: await response.text() };
}

async function revalidate(app: AppHandle, fullPaths: string[]) {
  const response = await fetch(`${app.url}/api/cms-revalidate`, {
    method: "POST",
    headers: { authorization: `Bearer ${SECRET}`, "content-type": "application/json" },
    body: JSON.stringify({ uid: "api::page.page", next: { fullPaths } }),
  });
  expect(response.status).toBe(200);
}

async function eventually<T>(probe: () => Promise<T>, accept: (value: T) => boolean, what: string, timeoutMs = 8_000) {
  const deadline = Date.now() + timeoutMs;
  let last: T = await probe();
  while (!accept(last)) {
    if (Date.now() > deadline) throw new Error(`${what}: last ${JSON.stringify(last).slice(0, 300)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    last = await probe();
  }
  return last;
}

async function regenerations(app: AppHandle) {
  const text = await (await fetch(`${app.url}/metrics`, { headers: { authorization: `Bearer ${METRICS}` } })).text();
  return Number(/^isr_cache_regenerations_total (\d+)$/m.exec(text)?.[1]);
}

describe("several instances with Redis", () => {
  it("a page rendered by instance A is a HIT on instance B", async () => {
    expect((await get(a, "/company")).cache).toBe("MISS");
    const onB = await get(b, "/company");
    expect(onB.cache).toBe("HIT");
    expect(onB.text).toContain("Company");
  });

  it("a revalidation received by A makes B serve STALE, then the fresh page", async () => {
    await get(a, "/careers");
    await eventually(
      () => get(b, "/careers"),
      (result) => result.cache === "HIT",
      "B caches /careers",
    );
    cms.setPage({ fullPath: "/careers", title: "Careers, renamed" });
    await revalidate(a, ["/careers"]);
    const stale = await eventually(
      () => get(b, "/careers"),
      (result) => result.cache !== "HIT",
      "B hears of it",
    );
    expect(stale.cache).toBe("STALE");
    expect(stale.text).not.toContain("Careers, renamed");
    await eventually(
      () => get(b, "/careers"),
      (result) => result.cache === "HIT" && result.text.includes("Careers, renamed"),
      "B fresh",
    );
  });

  it("200 concurrent requests over both instances on one stale key regenerate it once", async () => {
    await get(a, "/positions");
    await eventually(
      () => get(b, "/positions"),
      (result) => result.cache === "HIT",
      "B caches /positions",
    );
    await eventually(
      () => get(a, "/positions"),
      (result) => result.cache === "HIT",
      "A caches /positions",
    );
    const before = (await regenerations(a)) + (await regenerations(b));
    cms.setPage({ fullPath: "/positions", title: "Jobs, renamed" });
    await revalidate(a, ["/positions"]);
    await eventually(
      () => get(b, "/positions").then((result) => result.cache),
      (cache) => cache !== "HIT",
      "B hears of it",
    );
    const results = await Promise.all(Array.from({ length: 200 }, (_, i) => get(i % 2 ? a : b, "/positions")));
    expect(results.every((result) => result.status === 200)).toBe(true);
    await eventually(
      () => get(a, "/positions"),
      (result) => result.text.includes("Jobs, renamed"),
      "A fresh",
    );
    await eventually(
      () => get(b, "/positions"),
      (result) => result.text.includes("Jobs, renamed"),
      "B fresh",
    );
    const after = (await regenerations(a)) + (await regenerations(b));
    // The probe above on B may have started its one regeneration before the burst: one in total.
    expect(after - before).toBe(1);
  });

  it("a slow Redis does not make a second instance regenerate what the first is regenerating", async () => {
    // Under load (issue 30) Redis commands outlived the site's 500 ms timeout, and a timed-out lock
    // was taken as granted: 2 regenerations. Here Redis is paused while B holds the lock.
    const client = new Redis(redis.url);
    try {
      await get(a, "/hiring");
      await eventually(
        () => get(b, "/hiring"),
        (result) => result.cache === "HIT",
        "B caches /hiring",
      );
      await eventually(
        () => get(a, "/hiring"),
        (result) => result.cache === "HIT",
        "A caches /hiring",
      );
      const before = (await regenerations(a)) + (await regenerations(b));
      cms.setPage({ fullPath: "/hiring", title: "Hiring, renamed" });
      // B's render lasts past the pause below: its lock is held all along.
      cms.delayMs = 3_000;
      await revalidate(a, ["/hiring"]);
      await eventually(
        () => get(b, "/hiring").then((result) => result.cache),
        (cache) => cache !== "HIT",
        "B hears of it",
      );
      await eventually(
        () => client.exists("isr:lock:/hiring"),
        (held) => held === 1,
        "B takes the lock",
      );
      // Long enough for A's look in Redis, its second look and its lock command to time out (500 ms each).
      await client.client("PAUSE", 2_500, "ALL");
      const results = await Promise.all(Array.from({ length: 10 }, () => get(a, "/hiring")));
      expect(results.every((result) => result.status === 200)).toBe(true);
      cms.delayMs = 0;
      for (const app of [a, b]) {
        await eventually(
          () => get(app, "/hiring"),
          (result) => result.cache === "HIT" && result.text.includes("Hiring, renamed"),
          "fresh",
          30_000,
        );
      }
      expect((await regenerations(a)) + (await regenerations(b)) - before).toBe(1);
    } finally {
      cms.delayMs = 0;
      client.disconnect();
    }
  }, 60_000);

  it("strangers cannot fill Redis: not-found answers stay local, and the Redis is bounded (allkeys-lru)", async () => {
    const client = new Redis(redis.url);
    try {
      expect((await get(a, "/company")).status).toBe(200);
      for (let i = 0; i < 20; i++) expect((await get(a, `/no-such-page-${i}`)).status).toBe(404);
      // Cached locally all the same: the second ask is a HIT on the same instance.
      expect((await get(a, "/no-such-page-0")).cache).toBe("HIT");
      const keys = await client.keys("isr:entry:*");
      expect(keys).toContain("isr:entry:/company");
      expect(keys.filter((key) => key.includes("no-such-page"))).toEqual([]);
      expect(await client.config("GET", "maxmemory-policy")).toEqual(["maxmemory-policy", "allkeys-lru"]);
    } finally {
      client.disconnect();
    }
  });

  it("the auth rate limit counts requests across both instances", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const app = i % 2 ? b : a;
      const response = await fetch(`${app.url}/api/auth/sign-in-cms`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: app.url },
        body: JSON.stringify({ email: "ann@example.com", password: "wrong" }),
      });
      statuses.push(response.status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 429]);
  });

  it("a session signed out on one instance is refused on the other", async () => {
    cms.users.set("cat@example.com", { id: 3, password: "Right-password-3", blocked: false });
    // From another client address: the test above spent 127.0.0.1's sign-in budget.
    const signIn = await postFrom("127.0.0.2", `${a.url}/api/auth/sign-in-cms`, {
      email: "cat@example.com",
      password: "Right-password-3",
    });
    expect(signIn.status).toBe(200);
    const cookie = signIn.cookies.map((value) => value.split(";")[0]).join("; ");
    const session = async (app: AppHandle) =>
      (await (await fetch(`${app.url}/api/auth/get-session`, { headers: { cookie } })).json()) as {
        user?: { email: string };
      } | null;
    expect((await session(b))?.user?.email).toBe("cat@example.com");
    const signOut = await fetch(`${a.url}/api/auth/sign-out`, {
      method: "POST",
      headers: { cookie, origin: a.url, "content-type": "application/json" },
      body: "{}",
    });
    expect(signOut.status).toBe(200);
    expect(await session(b)).toBeNull();
  });

  it("50 wrong passwords at once over both instances: at most five reach the CMS, then the right one is refused", async () => {
    cms.users.set("dan@example.com", { id: 4, password: "Right-password-4", blocked: false });
    const signInsSeen = () => cms.requests.filter((request) => request === "/api/auth/local").length;
    const seenBefore = signInsSeen();
    // Each password check takes a while, as Strapi's bcrypt makes it: the guesses overlap.
    cms.delayMs = 300;
    try {
      // From 25 client addresses (127.0.0.30-54), two guesses each: within every per-IP budget.
      const guesses = Array.from({ length: 50 }, (_, i) =>
        postFrom(`127.0.0.${30 + (i % 25)}`, `${(i % 2 ? b : a).url}/api/auth/sign-in-cms`, {
          email: "dan@example.com",
          password: `wrong-${i}`,
        }),
      );
      const statuses = (await Promise.all(guesses)).map((answer) => answer.status);
      const reached = statuses.filter((status) => status === 401).length;
      expect(statuses.filter((status) => status !== 401 && status !== 429)).toEqual([]);
      expect(reached).toBeLessThanOrEqual(5);
      expect(signInsSeen() - seenBefore).toBe(reached);
      const right = await postFrom("127.0.0.60", `${b.url}/api/auth/sign-in-cms`, {
        email: "dan@example.com",
        password: "Right-password-4",
      });
      expect(right.status).toBe(429);
      expect(signInsSeen() - seenBefore).toBe(reached);
    } finally {
      cms.delayMs = 0;
    }
  });

  it("each instance holds two Redis connections, whatever it used: one shared for commands, one subscriber", async () => {
    // Everything above used Redis on both instances: page entries and locks, revalidations
    // (the bus), rate limits and session revocations; and now readiness.
    for (const app of [a, b]) expect((await fetch(`${app.url}/readyz`)).status).toBe(200);
    const client = new Redis(redis.url);
    try {
      const own = await client.client("ID");
      const list = (await client.client("LIST")) as string;
      const others = list
        .trim()
        .split("\n")
        .map((line) => Object.fromEntries(line.split(" ").map((field) => field.split("=") as [string, string])))
        .filter((fields) => fields.id !== String(own));
      const byProcess = new Map<string, string[]>();
      for (const fields of others) {
        const [, pid, role] = /^site:(\d+):(\w+)$/.exec(fields.name ?? "") ?? [];
        expect(pid, `a connection no instance named: ${JSON.stringify(fields)}`).toBeDefined();
        byProcess.set(pid!, [...(byProcess.get(pid!) ?? []), `${role} sub=${fields.sub}`].sort());
      }
      expect([...byProcess.values()]).toEqual([
        ["commands sub=0", "subscriber sub=1"],
        ["commands sub=0", "subscriber sub=1"],
      ]);
    } finally {
      client.disconnect();
    }
  });

  it("with Redis down nothing fails; once it is back the instances reconnect and catch up", async () => {
    await get(a, "/outage");
    await eventually(
      () => get(b, "/outage"),
      (result) => result.cache === "HIT",
      "B caches /outage",
    );
    await redis.stop();
    for (const app of [a, b]) {
      for (const path of ["/company", "/outage", "/not-cached-yet"]) {
        expect((await get(app, path)).status).toBeLessThan(500);
      }
    }
    cms.setPage({ fullPath: "/outage", title: "After the outage" });
    await revalidate(a, ["/outage"]); // A alone hears it now; B must learn it later
    expect((await get(b, "/outage")).cache).toBe("HIT");

    await redis.start();
    await eventually(
      () => get(b, "/outage"),
      (result) => result.text.includes("After the outage"),
      "B caught up",
      15_000,
    );
    expect(a.output() + b.output()).toContain("[redis] shared connection: reconnected");
  }, 30_000);
});
