import { describe, expect, it } from "vitest";

import { isoTimeOncePerMillisecond, requestIdOf } from "./logger.server.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe("requestIdOf", () => {
  it.each(["abc", "edge-1:abc.DEF_9", "0f8e6a3c-2b1d-4e5f-8a9b-0c1d2e3f4a5b", "x".repeat(128)])("keeps %s", (id) => {
    expect(requestIdOf(id)).toBe(id);
  });

  it.each([
    ["a newline", "abc\ndef"],
    ["a carriage return", "abc\r\nSet-Cookie: x=1"],
    ["10 KB", "a".repeat(10 * 1024)],
    ["129 characters", "x".repeat(129)],
    ["a space", "a b"],
    ["markup", "<script>"],
    ["nothing", ""],
  ])("replaces one with %s by a new UUID", (_what, id) => {
    expect(requestIdOf(id)).toMatch(UUID);
  });

  it("makes one when none or several came", () => {
    expect(requestIdOf(undefined)).toMatch(UUID);
    expect(requestIdOf(["a", "b"])).toMatch(UUID);
    expect(requestIdOf(undefined)).not.toBe(requestIdOf(undefined));
  });
});

describe("isoTimeOncePerMillisecond", () => {
  it("gives pino's ISO time, made again only when the millisecond changes", () => {
    let now = Date.UTC(2026, 10, 23, 15, 0, 0, 1);
    const time = isoTimeOncePerMillisecond(() => now);
    const first = time();
    expect(first).toBe(`,"time":"2026-11-23T15:00:00.001Z"`);
    expect(time()).toBe(first);
    now += 1;
    expect(time()).toBe(`,"time":"2026-11-23T15:00:00.002Z"`);
  });
});
