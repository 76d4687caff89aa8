import { createHash } from "node:crypto";

import type { Redis } from "ioredis";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";

import type { RateLimitBudget } from "./endpoints.ts";
import { whenReady } from "../redis.server.ts";
import { AuthError } from "./errors.server.ts";

/**
 * Per-client budgets for the auth forms and endpoints (rate-limiter-flexible): `max` attempts
 * per budget (app/lib/auth/endpoints.ts) and client IP in each window. Keys are a fixed budget
 * name plus an IP, and each expires with its window (in memory and in Redis alike), so the
 * state is bounded by the clients seen in one window, whatever paths they send.
 * With Redis the budgets hold across instances; while Redis is down each instance counts for
 * itself (the in-memory insurance limiter): a looser limit, never a refusal because of Redis.
 */
export interface RateLimiter {
  /** Counts one attempt; throws a 429 AuthError once the window's budget is spent. */
  hit(clientIp: string, budget: RateLimitBudget): Promise<void>;
  /** How many keys this process holds now (its own, or the insurance ones while Redis is down). */
  localKeys(): number;
}

export interface RateLimitOptions {
  max: number;
  windowSeconds: number;
  redis?: Redis;
}

export function createRateLimiter(options: RateLimitOptions): RateLimiter {
  const memory = new RateLimiterMemory({ points: options.max, duration: options.windowSeconds, keyPrefix: "auth" });
  const limiter: RateLimiterAbstract = options.redis
    ? new RateLimiterRedis({
        storeClient: options.redis,
        points: options.max,
        duration: options.windowSeconds,
        keyPrefix: "acme:ratelimit",
        rejectIfRedisNotReady: true,
        insuranceLimiter: memory,
      })
    : memory;
  return {
    async hit(clientIp, budget) {
      // A connection still being opened (the first requests after start) is waited for, briefly.
      if (options.redis) await whenReady(options.redis);
      try {
        await limiter.consume(`${budget}:${clientIp}`);
      } catch (error) {
        if (error instanceof RateLimiterRes) {
          throw new AuthError("RATE_LIMITED", {
            params: { retryAfterSeconds: Math.max(1, Math.ceil(error.msBeforeNext / 1000)) },
          });
        }
        throw error;
      }
    },
    // rate-limiter-flexible offers no count of its keys: its private store is read (not a type we
    // could name), for the test that keys expire.
    localKeys: () =>
      (memory as unknown as { _memoryStorage: { _storage: Map<string, unknown> } })._memoryStorage._storage.size,
  };
}

/**
 * Per-account lockout with backoff, beside the per-IP budgets: after `failures` wrong passwords
 * for one email address within `windowSeconds`, sign-in with that address is refused for
 * `baseBlockSeconds`, doubling with each lockout of the same address within a day, up to
 * `maxBlockSeconds`. Counted for every address typed, known or not (no enumeration); a
 * successful sign-in clears it. Keys are a hash of the address (no addresses in Redis).
 * The cost: whoever knows an address can keep it locked for a while; the cap keeps that short,
 * and password reset still works (decision 0020).
 */
export interface AccountLockout {
  /** Throws RATE_LIMITED (with the wait) while the address is locked. */
  check(email: string): Promise<void>;
  /** Counts a wrong password; locks the address when the count is reached. */
  failed(email: string): Promise<void>;
  /** A correct password: the address starts afresh. */
  succeeded(email: string): Promise<void>;
}

export interface AccountLockoutOptions {
  failures?: number;
  windowSeconds?: number;
  baseBlockSeconds?: number;
  maxBlockSeconds?: number;
  redis?: Redis;
}

const DAY_SECONDS = 24 * 60 * 60;

export function createAccountLockout(options: AccountLockoutOptions = {}): AccountLockout {
  const failures = options.failures ?? 5;
  const windowSeconds = options.windowSeconds ?? 15 * 60;
  const base = options.baseBlockSeconds ?? 60;
  const max = options.maxBlockSeconds ?? 60 * 60;
  const limiter = (name: string, points: number, duration: number): RateLimiterAbstract => {
    const memory = new RateLimiterMemory({ points, duration, keyPrefix: `lockout-${name}` });
    return options.redis
      ? new RateLimiterRedis({
          storeClient: options.redis,
          points,
          duration,
          keyPrefix: `acme:lockout:${name}`,
          rejectIfRedisNotReady: true,
          insuranceLimiter: memory,
        })
      : memory;
  };
  const wrong = limiter("failures", failures, windowSeconds);
  const lockouts = limiter("count", 1_000, DAY_SECONDS);
  const blocks = limiter("blocked", 1, 1);
  const keyOf = (email: string) => createHash("sha256").update(email.trim().toLowerCase()).digest("hex").slice(0, 32);
  const ready = async () => {
    if (options.redis) await whenReady(options.redis);
  };

  return {
    async check(email) {
      await ready();
      const blocked = await blocks.get(keyOf(email));
      if (blocked && blocked.consumedPoints > 1 && blocked.msBeforeNext > 0) {
        throw new AuthError("RATE_LIMITED", {
          params: { retryAfterSeconds: Math.max(1, Math.ceil(blocked.msBeforeNext / 1000)) },
        });
      }
    },
    async failed(email) {
      await ready();
      const key = keyOf(email);
      const counted = await wrong.consume(key).catch((rejected: unknown) => {
        if (rejected instanceof RateLimiterRes) return rejected;
        throw rejected;
      });
      if (counted.consumedPoints < failures) return;
      const lockout = await lockouts.consume(key);
      const seconds = Math.min(max, base * 2 ** (lockout.consumedPoints - 1));
      await blocks.block(key, seconds);
      await wrong.delete(key);
    },
    async succeeded(email) {
      await ready();
      const key = keyOf(email);
      // After a sign-in there is no block (check refused it); after a password reset there may be.
      await Promise.all([wrong.delete(key), lockouts.delete(key), blocks.delete(key)]);
    },
  };
}
