import { tooManyRequests } from "./errors.server.ts";

/**
 * Fixed-window rate limits for the auth forms and endpoints, per real client IP and path,
 * in this process. (A shared store for several instances is issue 6.)
 */
export class RateLimiter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one request; throws a 429 AuthError once the window's budget is spent. */
  hit(clientIp: string, path: string): void {
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
