import { createHash } from "node:crypto";

import type { Redis } from "ioredis";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";

import type { RateLimitBudget } from "./endpoints.ts";
import { rateLimitClientOf } from "../client-ip.server.ts";
import { whenReady } from "../redis.server.ts";
import { AuthError } from "./errors.server.ts";

/**
 * Per-client budgets for the auth forms and endpoints (rate-limiter-flexible): `max` attempts
 * per budget (app/lib/auth/endpoints.ts) and client in each window: an IPv4 address, or an IPv6
 * /64 (app/lib/client-ip.server.ts). Keys are a fixed budget name plus a client, and each
 * expires with its window (in memory and in Redis alike), so the state is bounded by the
 * clients seen in one window, whatever paths they send.
 * With Redis the budgets hold across instances; while Redis is down each instance counts for
 * itself (the in-memory insurance limiter): a looser limit, never a refusal because of Redis.
 */
export interface RateLimiter {
  /**
   * Counts one attempt of the client at `clientAddress` (an IPv6 address counts for its /64:
   * rateLimitClientOf); throws a 429 AuthError once the window's budget is spent.
   */
  hit(clientAddress: string, budget: RateLimitBudget): Promise<void>;
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
    async hit(clientAddress, budget) {
      // A connection still being opened (the first requests after start) is waited for, briefly.
      if (options.redis) await whenReady(options.redis);
      try {
        await limiter.consume(`${budget}:${rateLimitClientOf(clientAddress)}`);
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
 * for one key (an address, a known device's, a user id) within `windowSeconds`, password checks
 * for it are refused for `baseBlockSeconds`, doubling with each lockout of the same key within a
 * day, up to `maxBlockSeconds`. Counted for every address typed, known or not (no enumeration);
 * a right password clears it. Keys are hashed (no addresses in Redis).
 * The cost: whoever knows an address can keep it locked for a while; the cap keeps that short,
 * and password reset still works (decision 0020).
 *
 * Each check reserves its attempt before the CMS is asked (docs/security.md, finding 29): counting
 * only the answers let 50 guesses sent at once all reach the CMS while the count still said 0.
 * `attempts` holds the wrong passwords plus the checks in flight, so at most `failures` checks
 * per lock are ever asked, however many arrive at once, on however many instances (with Redis
 * the counts are shared and each step is atomic). A refused attempt, or one that is no guess
 * (the CMS down, for a sign-in), gives its point back; a guess keeps it; the `failures`-th
 * guess locks. An attempt lost with its process (a crash mid-check) is held until the window ends.
 */
export interface AccountLockout {
  /**
   * Runs `check` (the CMS's password check) as one attempt for `key`: refused with RATE_LIMITED
   * (and the wait), `check` not called, while the key is locked or its attempts are all taken.
   * A failure that `countsAsGuess` accepts (a wrong password) counts; success clears the key.
   */
  attempt<T>(key: string, check: () => Promise<T>, countsAsGuess: (error: unknown) => boolean): Promise<T>;
  /** A right password, or a password reset (proof of the address): the key starts afresh, unlocked. */
  succeeded(key: string): Promise<void>;
}

export interface AccountLockoutOptions {
  failures?: number;
  windowSeconds?: number;
  baseBlockSeconds?: number;
  maxBlockSeconds?: number;
  redis?: Redis;
}

const DAY_SECONDS = 24 * 60 * 60;
/**
 * What `attempts` holds while its key is locked (for the lock's length): far above any count,
 * so a point given back late, by a check that started before the lock, cannot open it.
 */
const LOCKED = 1_000_000;

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
  const attempts = limiter("attempts", failures, windowSeconds);
  const wrong = limiter("failures", failures, windowSeconds);
  const lockouts = limiter("count", 1_000, DAY_SECONDS);
  const keyOf = (key: string) => createHash("sha256").update(key.trim().toLowerCase()).digest("hex").slice(0, 32);
  const refused = (ms: number) =>
    new AuthError("RATE_LIMITED", { params: { retryAfterSeconds: Math.max(1, Math.ceil(ms / 1000)) } });
  const lockSeconds = (lockoutsBefore: number) => Math.min(max, base * 2 ** lockoutsBefore);

  /** Takes one of the key's attempts, or refuses: locked (the lock's wait), or all taken (the next lock's length). */
  async function reserve(key: string): Promise<void> {
    const taken = await attempts.consume(key).catch(asResult);
    if (taken.consumedPoints <= failures) return;
    if (taken.consumedPoints > LOCKED / 2) throw refused(taken.msBeforeNext);
    // The attempts are held by wrong passwords and checks still in flight: those decide whether a lock follows.
    await attempts.reward(key);
    const before = (await lockouts.get(key))?.consumedPoints ?? 0;
    throw refused(lockSeconds(before) * 1000);
  }

  /** A guess keeps its attempt; the one that makes `failures` locks the key (one request sees that count). */
  async function failed(key: string): Promise<void> {
    const counted = await wrong.penalty(key);
    if (counted.consumedPoints !== failures) return;
    const lockout = await lockouts.penalty(key);
    await attempts.set(key, LOCKED, lockSeconds(lockout.consumedPoints - 1));
    await wrong.delete(key);
  }

  async function clear(key: string): Promise<void> {
    await Promise.all([attempts.delete(key), wrong.delete(key), lockouts.delete(key)]);
  }

  const ready = async () => {
    if (options.redis) await whenReady(options.redis);
  };

  return {
    async attempt(key, check, countsAsGuess) {
      await ready();
      const id = keyOf(key);
      await reserve(id);
      const result = await check().catch(async (error: unknown) => {
        // No guess (the CMS unreachable at sign-in, a bad request): the attempt is given back.
        await (countsAsGuess(error) ? failed(id) : attempts.reward(id));
        throw error;
      });
      await clear(id);
      return result;
    },
    async succeeded(key) {
      await ready();
      await clear(keyOf(key));
    },
  };
}

/** A consume's answer, whether it was within the points (resolved) or beyond them (rejected). */
function asResult(rejected: unknown): RateLimiterRes {
  if (rejected instanceof RateLimiterRes) return rejected;
  throw rejected;
}
