import { describe, expect, it } from "vitest";

import { BudgetedStore } from "./budgeted-store.ts";
import { MemoryStore } from "./memory-store.ts";
import type { CacheEntry } from "./types.ts";

const entry = (status: number, size = 1_000): CacheEntry<{ status: number }> => ({
  value: { status },
  tags: [],
  path: "/",
  revalidate: 60,
  generatedAt: 0,
  size,
});

describe("BudgetedStore", () => {
  it("a flood of not-found answers never evicts a page", () => {
    const store = new BudgetedStore(
      new MemoryStore<{ status: number }>(10_000),
      new MemoryStore<{ status: number }>(5_000),
      (e) => e.value.status === 404,
    );
    store.set("/about", entry(200));
    for (let i = 0; i < 100_000; i++) store.set(`/scan-${i}`, entry(404));
    expect(store.get("/about")?.value.status).toBe(200);
    expect(store.get("/scan-99999")?.value.status).toBe(404);
    expect(store.get("/scan-0")).toBeUndefined();
    expect(store.byteSize).toBeLessThanOrEqual(15_000);
  });

  it("a key moves between budgets when its answer changes", () => {
    const store = new BudgetedStore(
      new MemoryStore<{ status: number }>(10_000),
      new MemoryStore<{ status: number }>(5_000),
      (e) => e.value.status === 404,
    );
    store.set("/new", entry(404));
    store.set("/new", entry(200));
    expect(store.count).toBe(1);
    store.set("/new", entry(404));
    expect(store.count).toBe(1);
    expect(store.get("/new")?.value.status).toBe(404);
  });
});
