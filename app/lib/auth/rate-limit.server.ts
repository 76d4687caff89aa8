import type { Redis } from "ioredis";

import { whenReady } from "../redis.server.ts";
import { AuthError, tooManyRequests } from "./errors.server.ts";

/** Counts one request of a client to a path; throws a 429 AuthError once the window's budget is spent. */
export interface RateLimiter {
  hit(clientIp: string, path: string): Promise<void>;
}

/** Fixed windows in this process. */
export class LocalRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  async hit(clientIp: string, path: string): Promise<void> {
    const now = this.now();
    if (this.windows.size > 10_000) this.sweep(now);
    const key = `${clientIp} ${path}`;
    const window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      this.windows.set(key, { count: 1, resetAt: now + this.windowMs });
      return;
    }
    window.count++;
    if (window.count > this.max) throw tooManyRequests(Math.ceil((window.resetAt - now) / 1000));
  }

  private sweep(now: number) {
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
  }
}

/**
 * The same windows in Redis, so the limit holds across instances. While Redis is down each
 * instance counts for itself (a looser limit, never a refusal because of Redis).
 */
export class RedisRateLimiter implements RateLimiter {
  private readonly fallback: LocalRateLimiter;

  constructor(
    private readonly redis: Redis,
    private readonly max: number,
    private readonly windowMs: number,
    private readonly prefix = "acme",
  ) {
    this.fallback = new LocalRateLimiter(max, windowMs);
  }

  async hit(clientIp: string, path: string): Promise<void> {
    const key = `${this.prefix}:ratelimit:${clientIp}:${path}`;
    let count: number;
    let ttlMs: number;
    await whenReady(this.redis);
    try {
      const results = await this.redis.multi().incr(key).pexpire(key, this.windowMs, "NX").pttl(key).exec();
      count = Number(results?.[0]?.[1]);
      ttlMs = Number(results?.[2]?.[1]);
      if (!Number.isFinite(count)) throw new Error("no answer");
    } catch (error) {
      if (error instanceof AuthError) throw error;
      return this.fallback.hit(clientIp, path);
    }
    if (count > this.max) throw tooManyRequests(Math.max(1, Math.ceil(ttlMs / 1000)));
  }
}
