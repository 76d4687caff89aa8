import type { Redis } from "ioredis";
import { createContext, type RouterContextProvider } from "react-router";

import { clientIpOf } from "../auth/request-guards.server.ts";
import { AuthError } from "../auth/errors.server.ts";
import { createRateLimiter, type RateLimiter } from "../auth/rate-limit.server.ts";
import type { Env } from "../env.server.ts";

/**
 * The per-visitor budget of the site's search (docs/search.md, "Limits and answers";
 * docs/security.md, finding 52). Every `/search?q=` answer is made afresh (no cache may hold what a
 * stranger types) and costs one full-text query of the CMS, so one script sending queries as fast
 * as it can would keep the CMS busy for everyone. The auth forms' limiter counts it
 * (rate-limiter-flexible: shared across instances through Redis, keys that expire with their
 * window), as its own instance: a person searches more often than they sign in, so the budget is
 * its own (SEARCH_RATE_LIMIT_MAX per SEARCH_RATE_LIMIT_WINDOW_SECONDS, 30 a minute by default).
 */
export const searchLimiterContext = createContext<RateLimiter>();

export function createSearchLimiter(config: Env, redis: Redis | undefined): RateLimiter {
  return createRateLimiter({
    max: config.SEARCH_RATE_LIMIT_MAX,
    windowSeconds: config.SEARCH_RATE_LIMIT_WINDOW_SECONDS,
    redis,
  });
}

/**
 * Counts one search of the request's client: null while within the budget, else how many seconds
 * until the next one is allowed. A query the page refuses before asking the CMS is never counted.
 */
export async function spendSearch(
  context: Readonly<RouterContextProvider>,
  request: Request,
): Promise<{ retryAfterSeconds: number } | null> {
  try {
    await context.get(searchLimiterContext).hit(clientIpOf(request), "search");
    return null;
  } catch (error) {
    if (error instanceof AuthError && error.code === "RATE_LIMITED") {
      return { retryAfterSeconds: error.params.retryAfterSeconds ?? 1 };
    }
    throw error;
  }
}
