import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { createAccountLockout, createRateLimiter } from "./rate-limit.server.ts";

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

describe("the per-account lockout (in memory)", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const waitOf = async (promise: Promise<void>) =>
    promise.then(
      () => 0,
      (error: { code: string; params: { retryAfterSeconds: number } }) => {
        expect(error.code).toBe("RATE_LIMITED");
        return error.params.retryAfterSeconds;
      },
    );

  it("locks an address after five wrong passwords, for longer each time, and only that address", async () => {
    const lockout = createAccountLockout({ failures: 5, baseBlockSeconds: 60, maxBlockSeconds: 200 });
    const failFive = async (email: string) => {
      for (let i = 0; i < 5; i++) await lockout.failed(email);
    };
    for (let i = 0; i < 4; i++) await lockout.failed("Ann@Example.com");
    expect(await waitOf(lockout.check("ann@example.com"))).toBe(0);
    await lockout.failed("ann@example.com");
    expect(await waitOf(lockout.check("ANN@example.com"))).toBe(60);
    expect(await waitOf(lockout.check("bob@example.com"))).toBe(0);

    await vi.advanceTimersByTimeAsync(60_001);
    expect(await waitOf(lockout.check("ann@example.com"))).toBe(0);
    await failFive("ann@example.com");
    expect(await waitOf(lockout.check("ann@example.com"))).toBe(120);
    await vi.advanceTimersByTimeAsync(120_001);
    await failFive("ann@example.com");
    expect(await waitOf(lockout.check("ann@example.com"))).toBe(200); // capped
  });

  it("a correct password clears the count and the backoff", async () => {
    const lockout = createAccountLockout({ failures: 3, baseBlockSeconds: 10 });
    for (let i = 0; i < 3; i++) await lockout.failed("ann@example.com");
    await vi.advanceTimersByTimeAsync(10_001);
    await lockout.succeeded("ann@example.com");
    for (let i = 0; i < 2; i++) await lockout.failed("ann@example.com");
    expect(await waitOf(lockout.check("ann@example.com"))).toBe(0);
    await lockout.failed("ann@example.com");
    expect(await waitOf(lockout.check("ann@example.com"))).toBe(10);
  });
});
