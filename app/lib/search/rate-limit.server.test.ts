import { RouterContextProvider } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import type { Env } from "../env.server.ts";
import { createSearchLimiter, searchLimiterContext, spendSearch } from "./rate-limit.server.ts";

// The search's budget per client (finding 52); through the site: tests/integration/site-search-limits.test.ts.
describe("the search budget (in memory)", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const config = { SEARCH_RATE_LIMIT_MAX: 2, SEARCH_RATE_LIMIT_WINDOW_SECONDS: 10 } as Env;
  const limiter = () => createSearchLimiter(config, undefined);
  const contextWith = (searchLimiter: ReturnType<typeof createSearchLimiter>) => {
    const context = new RouterContextProvider();
    context.set(searchLimiterContext, searchLimiter);
    return context;
  };
  const from = (client: string) => new Request("http://site.test/search?q=x", { headers: { "x-client-ip": client } });

  it("refuses the search past the budget with the wait until the window ends; other clients search on", async () => {
    const context = contextWith(limiter());
    expect(await spendSearch(context, from("10.0.0.1"))).toBeNull();
    expect(await spendSearch(context, from("10.0.0.1"))).toBeNull();
    expect(await spendSearch(context, from("10.0.0.1"))).toEqual({ retryAfterSeconds: 10 });
    expect(await spendSearch(context, from("10.0.0.2"))).toBeNull();
    await vi.advanceTimersByTimeAsync(10_001);
    expect(await spendSearch(context, from("10.0.0.1"))).toBeNull();
  });

  it("forgets every client when the window ends: the state is bounded by one window's clients", async () => {
    const searchLimiter = limiter();
    const context = contextWith(searchLimiter);
    for (let client = 0; client < 300; client++)
      await spendSearch(context, from(`10.2.${client >> 8}.${client & 255}`));
    expect(searchLimiter.localKeys()).toBe(300);
    await vi.advanceTimersByTimeAsync(10_001);
    expect(searchLimiter.localKeys()).toBe(0);
  });
});
