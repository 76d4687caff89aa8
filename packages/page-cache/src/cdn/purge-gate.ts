/**
 * Every request the site makes to a CDN's purge API goes through one gate per provider: a token
 * bucket (the provider's rate limit, CDN_PURGE_PER_MINUTE), a bounded queue of callers waiting
 * for a token (each waits at most maxWaitMs), and retries with exponential backoff for what the
 * CDN may take later (429 with its Retry-After, 5xx, no answer). What still fails is thrown as a
 * CdnError: the purge route answers 502 and the CMS records it on the editors' failures page
 * (docs/decisions/0028-publish-to-visible-at-the-edge.md).
 */

/** The CDN refused or could not be reached: answer 502 with what it said. */
export class CdnError extends Error {
  constructor(
    message: string,
    /** Worth trying again later (429, 5xx, no answer). */
    readonly retryable = false,
    /** The CDN's Retry-After, in ms. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = "CdnError";
  }
}

export interface PurgeGateOptions {
  /** Requests per minute; 0: no limit. The bucket starts full (a burst of perMinute). */
  perMinute: number;
  /** Callers that may wait for a token at once; one more is refused at once. */
  maxQueued?: number;
  /** How long a caller may wait for a token (ms) before it is refused. */
  maxWaitMs?: number;
  /** Retries of a retryable failure, each after baseDelayMs * 2^n (capped at maxDelayMs, or the CDN's Retry-After). */
  retries?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

export interface PurgeGate {
  /** Runs one request to the CDN: after a token, retried while it fails retryably. */
  run<T>(call: () => Promise<T>): Promise<T>;
  /** Callers waiting for a token now (tests, logs). */
  readonly queued: number;
}

export function createPurgeGate(options: PurgeGateOptions): PurgeGate {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const maxQueued = options.maxQueued ?? 100;
  const maxWaitMs = options.maxWaitMs ?? 30_000;
  const retries = options.retries ?? 3;
  const baseDelayMs = options.baseDelayMs ?? 1_000;
  const maxDelayMs = options.maxDelayMs ?? 30_000;
  const { perMinute } = options;
  const msPerToken = perMinute > 0 ? 60_000 / perMinute : 0;
  let tokens = perMinute;
  let refilledAt = now();
  let queued = 0;
  /** Takers are served in order: each waits for the one before it. */
  let line: Promise<void> = Promise.resolve();

  function refill() {
    const time = now();
    tokens = Math.min(perMinute, tokens + (time - refilledAt) / msPerToken);
    refilledAt = time;
  }

  async function takeToken(): Promise<void> {
    if (perMinute === 0) return;
    if (queued >= maxQueued)
      throw new CdnError(`purge queue full (${maxQueued} waiting for the CDN's rate limit)`, true);
    queued += 1;
    const deadline = now() + maxWaitMs;
    const turn = line.then(async () => {
      refill();
      while (tokens < 1) {
        const wait = Math.ceil((1 - tokens) * msPerToken);
        if (now() + wait > deadline)
          throw new CdnError(
            `the CDN's rate limit (${perMinute} a minute) leaves no room within ${maxWaitMs} ms`,
            true,
          );
        await sleep(wait);
        refill();
      }
      tokens -= 1;
    });
    line = turn.catch(() => {});
    try {
      await turn;
    } finally {
      queued -= 1;
    }
  }

  return {
    get queued() {
      return queued;
    },
    async run<T>(call: () => Promise<T>): Promise<T> {
      for (let attempt = 0; ; attempt += 1) {
        await takeToken();
        try {
          return await call();
        } catch (error) {
          if (!(error instanceof CdnError) || !error.retryable || attempt >= retries) throw error;
          const backoff = Math.min(maxDelayMs, baseDelayMs * 2 ** attempt);
          await sleep(Math.min(maxDelayMs, Math.max(backoff, error.retryAfterMs ?? 0)));
        }
      }
    },
  };
}
