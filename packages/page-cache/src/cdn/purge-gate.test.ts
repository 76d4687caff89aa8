import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { CdnError, createPurgeGate } from "./purge-gate.ts";
import { cloudflareProvider, fastlyProvider } from "./providers.ts";

/** A clock the test moves; sleeping moves it (and records how long). */
function fakeTime() {
  let now = 0;
  const slept: number[] = [];
  return {
    now: () => now,
    sleep: async (ms: number) => {
      slept.push(ms);
      now += ms;
    },
    slept,
  };
}

describe("purge gate: the CDN's rate limit", () => {
  it("a burst of perMinute, then one request every 60/perMinute seconds", async () => {
    const time = fakeTime();
    const gate = createPurgeGate({ perMinute: 5, now: time.now, sleep: time.sleep, maxWaitMs: 600_000 });
    const at: number[] = [];
    for (let n = 0; n < 8; n += 1) await gate.run(async () => at.push(time.now()));
    expect(at).toEqual([0, 0, 0, 0, 0, 12_000, 24_000, 36_000]);
  });

  it("0: no limit, no waiting", async () => {
    const time = fakeTime();
    const gate = createPurgeGate({ perMinute: 0, now: time.now, sleep: time.sleep });
    for (let n = 0; n < 1000; n += 1) await gate.run(async () => n);
    expect(time.slept).toEqual([]);
  });

  it("a caller who would wait longer than maxWaitMs is refused with a retryable CdnError", async () => {
    const time = fakeTime();
    const gate = createPurgeGate({ perMinute: 1, now: time.now, sleep: time.sleep, maxWaitMs: 10_000 });
    await gate.run(async () => "first");
    const refused = gate.run(async () => "second");
    await expect(refused).rejects.toThrow(/rate limit \(1 a minute\) leaves no room within 10000 ms/);
    await expect(refused).rejects.toMatchObject({ retryable: true });
  });

  it("bounded queue: past maxQueued waiting callers, the next is refused at once", async () => {
    let release = () => {};
    const blocked = new Promise<void>((resolve) => (release = resolve));
    let now = 0;
    // The first waiter sleeps until the test releases it; the clock then moves on by what it slept.
    const sleep = async (ms: number) => {
      await blocked;
      now += ms;
    };
    const gate = createPurgeGate({ perMinute: 1, maxQueued: 3, maxWaitMs: 600_000, now: () => now, sleep });
    await gate.run(async () => "takes the only token");
    const waiting = Array.from({ length: 3 }, () => gate.run(async () => "later"));
    expect(gate.queued).toBe(3);
    await expect(gate.run(async () => "one too many")).rejects.toThrow(/purge queue full \(3 waiting/);
    expect(gate.queued).toBe(3);
    release();
    await Promise.allSettled(waiting);
    expect(gate.queued).toBe(0);
  });
});

describe("purge gate: retries", () => {
  it("429 / 5xx / no answer are retried with exponential backoff, at least the CDN's Retry-After", async () => {
    const time = fakeTime();
    const gate = createPurgeGate({ perMinute: 0, retries: 3, baseDelayMs: 100, now: time.now, sleep: time.sleep });
    const failures = [new CdnError("503", true), new CdnError("429", true, 5_000), new CdnError("no answer", true)];
    let calls = 0;
    const result = await gate.run(async () => {
      calls += 1;
      const failure = failures.shift();
      if (failure) throw failure;
      return "purged";
    });
    expect(result).toBe("purged");
    expect(calls).toBe(4);
    expect(time.slept).toEqual([100, 5_000, 400]);
  });

  it("gives up after the retries; a refusal (403) is not retried", async () => {
    const time = fakeTime();
    const gate = createPurgeGate({ perMinute: 0, retries: 2, baseDelayMs: 10, now: time.now, sleep: time.sleep });
    let calls = 0;
    await expect(
      gate.run(async () => {
        calls += 1;
        throw new CdnError("still 503", true);
      }),
    ).rejects.toThrow("still 503");
    expect(calls).toBe(3);
    calls = 0;
    await expect(
      gate.run(async () => {
        calls += 1;
        throw new CdnError("403", false);
      }),
    ).rejects.toThrow("403");
    expect(calls).toBe(1);
  });
});

/**
 * A local stand-in for Cloudflare's and Fastly's purge APIs (no internet): records each request
 * and answers from `answers` (status, headers) in order, then 200.
 */
let server: Server;
let base = "";
const received: Array<{ method: string; url: string; headers: IncomingMessage["headers"]; body: string }> = [];
const answers: Array<{ status: number; headers?: Record<string, string> }> = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      received.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
      const answer = answers.shift() ?? { status: 200 };
      res.writeHead(answer.status, { "content-type": "application/json", ...answer.headers });
      res.end(JSON.stringify({ success: answer.status < 400 }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("providers over HTTP, against a local stand-in API", () => {
  it("Cloudflare: 250 tags go as 100 a request; a 429 is retried after Retry-After", async () => {
    received.length = 0;
    answers.push({ status: 429, headers: { "retry-after": "0" } });
    const gate = createPurgeGate({ perMinute: 0, retries: 2, baseDelayMs: 1 });
    const cloudflare = cloudflareProvider(
      { zoneId: "zone1", apiToken: "cf-token", apiBase: base },
      { siteUrl: "https://www.example.com", timeoutMs: 2_000, gate, maxTagsPerRequest: 100 },
    );
    const tags = Array.from({ length: 250 }, (_, n) => `cms:api::page.page:d${n}`);
    const result = await cloudflare.purge({ paths: [], tags, everything: false });
    expect(result.requests).toHaveLength(3);
    expect(received).toHaveLength(4); // the first one twice: 429, then taken
    expect(received.map((request) => (JSON.parse(request.body) as { tags: string[] }).tags.length)).toEqual([
      100, 100, 100, 50,
    ]);
    expect(received[0]).toMatchObject({ method: "POST", url: "/zones/zone1/purge_cache" });
    expect(received[0]?.headers.authorization).toBe("Bearer cf-token");
  });

  it("Fastly: surrogate keys batched 256 a request, soft when asked; a 503 is retried, a 401 is not", async () => {
    received.length = 0;
    answers.push({ status: 503 });
    const gate = createPurgeGate({ perMinute: 0, retries: 2, baseDelayMs: 1 });
    const fastly = fastlyProvider(
      { serviceId: "svc", apiToken: "f-token", apiBase: base },
      { siteUrl: "https://www.example.com", timeoutMs: 2_000, gate },
    );
    const tags = Array.from({ length: 300 }, (_, n) => `t${n}`);
    await fastly.purge({ paths: ["/jobs"], tags, everything: false, soft: true });
    expect(
      received.map((request) => [request.url, String(request.headers["surrogate-key"] ?? "").split(" ").length]),
    ).toEqual([
      ["/service/svc/purge", 256],
      ["/service/svc/purge", 256],
      ["/service/svc/purge", 44],
      ["/purge/www.example.com/jobs", 1],
    ]);
    expect(received.every((request) => request.headers["fastly-soft-purge"] === "1")).toBe(true);

    received.length = 0;
    answers.push({ status: 401 });
    await expect(fastly.purge({ paths: ["/jobs"], tags: [], everything: false })).rejects.toThrow(/answered 401/);
    expect(received).toHaveLength(1);
  });
});
