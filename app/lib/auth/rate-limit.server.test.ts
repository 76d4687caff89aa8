import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { AuthError } from "./errors.server.ts";
import { createAccountLockout, createRateLimiter, type AccountLockout } from "./rate-limit.server.ts";

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

  it("counts an IPv6 client by its /64 and an IPv4-mapped one as IPv4 (finding 32)", async () => {
    const limiter = createRateLimiter({ max: 2, windowSeconds: 60 });
    await limiter.hit("2001:db8:0:1::1", "sign-in");
    await limiter.hit("2001:db8:0:1:ffff::2", "sign-in");
    await expect(limiter.hit("2001:db8:0:1:1234:5678:9abc:def0", "sign-in")).rejects.toMatchObject({ statusCode: 429 });
    await limiter.hit("2001:db8:0:2::1", "sign-in");
    await limiter.hit("192.0.2.1", "sign-in");
    await limiter.hit("::ffff:192.0.2.1", "sign-in");
    await expect(limiter.hit("192.0.2.1", "sign-in")).rejects.toMatchObject({ statusCode: 429 });
    // Other IPv4 clients of a dual-stack listener are not one /64.
    await limiter.hit("::ffff:192.0.2.2", "sign-in");
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

  const isWrong = (error: unknown) => error instanceof AuthError && error.code === "INVALID_CREDENTIALS";
  const wrongPassword = () => Promise.reject(new AuthError("INVALID_CREDENTIALS"));
  const rightPassword = vi.fn(async () => "signed in");

  /** 0 when the attempt went through (or failed as a wrong password), else the wait it was refused with. */
  const waitOf = (lockout: AccountLockout, key: string, check: () => Promise<string> = rightPassword) =>
    lockout.attempt(key, check, isWrong).then(
      () => 0,
      (error: AuthError) => {
        if (error.code === "INVALID_CREDENTIALS") return 0;
        expect(error.code).toBe("RATE_LIMITED");
        return error.params!.retryAfterSeconds as number;
      },
    );

  it("locks an address after five wrong passwords, for longer each time, and only that address", async () => {
    const lockout = createAccountLockout({ failures: 5, baseBlockSeconds: 60, maxBlockSeconds: 200 });
    const failFive = async (email: string) => {
      for (let i = 0; i < 5; i++) expect(await waitOf(lockout, email, wrongPassword)).toBe(0);
    };
    for (let i = 0; i < 4; i++) await waitOf(lockout, "Ann@Example.com", wrongPassword);
    await waitOf(lockout, "ann@example.com", wrongPassword);
    rightPassword.mockClear();
    expect(await waitOf(lockout, "ANN@example.com")).toBe(60);
    expect(rightPassword).not.toHaveBeenCalled();
    expect(await waitOf(lockout, "bob@example.com")).toBe(0);

    await vi.advanceTimersByTimeAsync(60_001);
    await failFive("ann@example.com");
    expect(await waitOf(lockout, "ann@example.com")).toBe(120);
    await vi.advanceTimersByTimeAsync(120_001);
    await failFive("ann@example.com");
    expect(await waitOf(lockout, "ann@example.com")).toBe(200); // capped
  });

  it("a right password clears the count and the backoff; other failures give their attempt back", async () => {
    const lockout = createAccountLockout({ failures: 3, baseBlockSeconds: 10 });
    for (let i = 0; i < 3; i++) await waitOf(lockout, "ann@example.com", wrongPassword);
    await vi.advanceTimersByTimeAsync(10_001);
    expect(await waitOf(lockout, "ann@example.com")).toBe(0);
    for (let i = 0; i < 2; i++) await waitOf(lockout, "ann@example.com", wrongPassword);
    // The CMS down: not a guess, the attempt is given back.
    const down = () => Promise.reject(new AuthError("CMS_UNAVAILABLE"));
    for (let i = 0; i < 5; i++) {
      await expect(lockout.attempt("ann@example.com", down, isWrong)).rejects.toMatchObject({
        code: "CMS_UNAVAILABLE",
      });
    }
    await waitOf(lockout, "ann@example.com", wrongPassword);
    expect(await waitOf(lockout, "ann@example.com")).toBe(10); // the first lock of a fresh start
  });

  it("a password reset (succeeded) ends a lock", async () => {
    const lockout = createAccountLockout({ failures: 2 });
    for (let i = 0; i < 2; i++) await waitOf(lockout, "ann@example.com", wrongPassword);
    expect(await waitOf(lockout, "ann@example.com")).toBe(60);
    await lockout.succeeded("ann@example.com");
    expect(await waitOf(lockout, "ann@example.com")).toBe(0);
  });
});

describe("the per-account lockout under concurrent guesses (finding 29)", () => {
  const isWrong = (error: unknown) => error instanceof AuthError && error.code === "INVALID_CREDENTIALS";

  /** A CMS whose password checks stay open until the test answers them. */
  function slowCms() {
    const open: Array<(right: boolean) => void> = [];
    const check = vi.fn(
      () =>
        new Promise<string>((resolve, reject) =>
          open.push((right) => (right ? resolve("signed in") : reject(new AuthError("INVALID_CREDENTIALS")))),
        ),
    );
    return { check, open };
  }

  /** Starts `count` attempts at once; their outcomes (a code, or "signed in") arrive in `outcomes`. */
  function sendAtOnce(lockout: AccountLockout, key: string, count: number, check: () => Promise<string>) {
    const outcomes: string[] = [];
    const all = Array.from({ length: count }, () =>
      lockout.attempt(key, check, isWrong).then(
        (result) => void outcomes.push(result),
        (error: AuthError) => void outcomes.push(error.code),
      ),
    );
    return { outcomes, all: Promise.all(all) };
  }

  it("50 wrong passwords at once: five reach the CMS, 45 are refused at once, then the right password too", async () => {
    const lockout = createAccountLockout();
    const cms = slowCms();
    const guesses = sendAtOnce(lockout, "ann@example.com", 50, cms.check);
    await vi.waitFor(() => expect(guesses.outcomes).toHaveLength(45));
    expect(guesses.outcomes.every((code) => code === "RATE_LIMITED")).toBe(true);
    expect(cms.check).toHaveBeenCalledTimes(5);

    // The right password while the five are still being checked: refused, the CMS not asked.
    const right = vi.fn(async () => "signed in");
    await expect(lockout.attempt("ann@example.com", right, isWrong)).rejects.toMatchObject({
      code: "RATE_LIMITED",
      params: { retryAfterSeconds: 60 },
    });
    for (const answer of cms.open) answer(false);
    await guesses.all;
    expect(guesses.outcomes.filter((code) => code === "INVALID_CREDENTIALS")).toHaveLength(5);
    // And after them: locked.
    await expect(lockout.attempt("ann@example.com", right, isWrong)).rejects.toMatchObject({
      code: "RATE_LIMITED",
      params: { retryAfterSeconds: 60 },
    });
    expect(right).not.toHaveBeenCalled();
    expect(cms.check).toHaveBeenCalledTimes(5);
  });

  it("a right password among the first five still signs in and clears the count; the lock is taken once", async () => {
    const lockout = createAccountLockout({ failures: 3, baseBlockSeconds: 10 });
    const cms = slowCms();
    const first = sendAtOnce(lockout, "bob@example.com", 10, cms.check);
    await vi.waitFor(() => expect(first.outcomes).toHaveLength(7));
    cms.open[0]!(true);
    cms.open[1]!(false);
    cms.open[2]!(false);
    await first.all;
    expect(first.outcomes.filter((code) => code === "signed in")).toHaveLength(1);
    // Cleared: three fresh attempts, and one lock of the first length (not one per late failure).
    const second = slowCms();
    const again = sendAtOnce(lockout, "bob@example.com", 3, second.check);
    await vi.waitFor(() => expect(second.check).toHaveBeenCalledTimes(3));
    for (const answer of second.open) answer(false);
    await again.all;
    await expect(lockout.attempt("bob@example.com", cms.check, isWrong)).rejects.toMatchObject({
      code: "RATE_LIMITED",
      params: { retryAfterSeconds: 10 },
    });
  });
});
