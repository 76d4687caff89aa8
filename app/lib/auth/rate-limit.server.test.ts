import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { createRateLimiter } from "./rate-limit.server.ts";

describe("the auth rate limiter (in memory)", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("refuses the attempt after the budget with a 429 and a wait", async () => {
    const limiter = createRateLimiter({ max: 2, windowSeconds: 60 });
    await limiter.hit("10.0.0.1", "sign-in");
    await limiter.hit("10.0.0.1", "sign-in");
    await expect(limiter.hit("10.0.0.1", "sign-in")).rejects.toMatchObject({
      statusCode: 429,
      code: "RATE_LIMITED",
      message: "Too many attempts. Please wait 60 seconds and try again.",
      params: { retryAfterSeconds: 60 },
    });
    // Another budget, another client: their own counts.
    await limiter.hit("10.0.0.1", "register");
    await limiter.hit("10.0.0.2", "sign-in");
  });

  it("forgets every key when its window ends: the state is bounded by one window's clients", async () => {
    const limiter = createRateLimiter({ max: 5, windowSeconds: 10 });
    for (let client = 0; client < 500; client++) await limiter.hit(`10.1.${client >> 8}.${client & 255}`, "sign-in");
    expect(limiter.localKeys()).toBe(500);
    await vi.advanceTimersByTimeAsync(10_001);
    expect(limiter.localKeys()).toBe(0);
    await limiter.hit("10.1.0.0", "sign-in");
    expect(limiter.localKeys()).toBe(1);
  });
});
