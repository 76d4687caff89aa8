import { memoryAdapter } from "@better-auth/memory-adapter";
import type { DBAdapter } from "better-auth";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { memoryLog } from "../../../tests/support/memory-log.ts";
import { countMemoryRows, startMemoryRowSweeper } from "./memory-rows.server.ts";

// better-auth's own memory adapter (what it uses when there is no database), with the rows an
// OAuth sign-in leaves behind.
function realMemoryAdapter(): DBAdapter {
  const db: Record<string, Array<Record<string, unknown>>> = { user: [], session: [], account: [], verification: [] };
  return memoryAdapter(db)({});
}

async function signInLeftovers(adapter: DBAdapter, at: Date, n: number) {
  const create = (query: { model: string; data: Record<string, unknown> }) => adapter.create(query);
  for (let i = 0; i < n; i++) {
    const id = `${at.getTime()}-${i}`;
    await create({
      model: "user",
      data: { id: `u${id}`, email: `${id}@example.com`, name: "x", emailVerified: true, createdAt: at, updatedAt: at },
    });
    await create({
      model: "account",
      data: { id: `a${id}`, userId: `u${id}`, accountId: id, providerId: "oidc", createdAt: at, updatedAt: at },
    });
    await create({
      model: "session",
      data: { id: `s${id}`, userId: `u${id}`, token: `t${id}`, expiresAt: at, createdAt: at, updatedAt: at },
    });
    await create({
      model: "verification",
      data: { id: `v${id}`, identifier: id, value: "state", expiresAt: at, createdAt: at, updatedAt: at },
    });
  }
}

describe("better-auth's memory rows", () => {
  beforeEach(() => vi.useFakeTimers({ now: new Date("2026-01-01T12:00:00Z") }));
  afterEach(() => vi.useRealTimers());

  it("never accumulate: rows older than the maximum age are swept every interval", async () => {
    const adapter = realMemoryAdapter();
    const stop = startMemoryRowSweeper(async () => adapter, memoryLog(), { intervalMs: 60_000, maxAgeMs: 600_000 });
    // An hour of sign-ins, 10 a minute: without the sweep, 2,400 rows. (50 a minute took more than
    // the test's 15 s on a loaded 2-core machine: better-auth's memory adapter scans its rows.)
    for (let minute = 0; minute < 60; minute++) {
      await signInLeftovers(adapter, new Date(), 10);
      await vi.advanceTimersByTimeAsync(60_000);
    }
    // At most the last ten minutes' rows (and their sweep has not run yet for the newest).
    expect(await countMemoryRows(adapter)).toBeLessThanOrEqual(11 * 10 * 4);
    expect(await countMemoryRows(adapter)).toBeGreaterThan(0);
    stop();
  });
});
