import type { Redis } from "ioredis";
import { describe, expect, it } from "vitest";

import { warnIfUnbounded } from "./redis.server.ts";

/** Just enough of a connected ioredis client for warnIfUnbounded. */
function redisWith(settings: Record<string, string> | "forbidden"): Redis {
  return {
    status: "ready",
    config: async (_get: string, name: string) => {
      if (settings === "forbidden") throw new Error("ERR unknown command 'CONFIG'");
      return [name, settings[name]];
    },
  } as unknown as Redis;
}

describe("warnIfUnbounded", () => {
  it.each([
    [{ maxmemory: "0", "maxmemory-policy": "noeviction" }, true],
    [{ maxmemory: "268435456", "maxmemory-policy": "noeviction" }, true],
    [{ maxmemory: "0", "maxmemory-policy": "allkeys-lru" }, true],
    [{ maxmemory: "268435456", "maxmemory-policy": "allkeys-lru" }, false],
    ["forbidden" as const, false],
  ])("%j warns: %s", async (settings, warns) => {
    const lines: string[] = [];
    await warnIfUnbounded(redisWith(settings), (line) => lines.push(line));
    expect(lines.length > 0).toBe(warns);
    if (warns) expect(lines[0]).toMatch(/allkeys-lru/);
  });
});
