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
