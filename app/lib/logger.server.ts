import { randomUUID } from "node:crypto";

import pino, { type Logger } from "pino";

export type { Logger };

/** LOG_LEVEL's values (app/lib/env.server.ts), pino's levels. */
export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** The message of the per-request lines (server/request-log.ts): the only lines written in batches. */
export const REQUEST_LINE = "request";

/**
 * The process's one logger (pino): one JSON object per line on standard output, written
 * in batches (pino.destination, not console), with an ISO time and the level's name.
 * server/index.ts makes it once at start from LOG_LEVEL and hands it to everything it builds,
 * which sees it as a `Log` (app/lib/log.ts); no module holds one of its own (decision 0049).
 */
export function createLogger(level: LogLevel, destination = bufferedStdout()): Logger {
  return pino(
    {
      level,
      hooks: {
        // Only the per-request lines wait in the batch; anything else (revalidations, warnings,
        // errors, start and stop) is written at once.
        logMethod(args, method) {
          method.apply(this, args);
          if (args[1] !== REQUEST_LINE) destination.flushSync();
        },
      },
      base: { pid: process.pid },
      timestamp: isoTimeOncePerMillisecond(),
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
}

/**
 * pino's ISO time (`,"time":"…"`), made once per millisecond: at several thousand lines a second,
 * formatting a Date for each line was the largest single cost of the request log on a cache HIT
 * (bench/README.md, "Request log").
 */
export function isoTimeOncePerMillisecond(now: () => number = Date.now): () => string {
  let lastMs = Number.NaN;
  let last = "";
  return () => {
    const ms = now();
    if (ms !== lastMs) {
      lastMs = ms;
      last = `,"time":"${new Date(ms).toISOString()}"`;
    }
    return last;
  };
}

/**
 * Standard output, written in batches: per-request lines are gathered up to 4 KiB and written in
 * one call (at several thousand requests a second, one write per line costs the HIT path about a
 * third of its throughput; bench/README.md "Request log"), and whatever is gathered is written at
 * least every 250 ms. Shutdown flushes it (server/index.ts).
 */
function bufferedStdout() {
  // Synchronous writes of whole batches: never an async write in flight, so any line can be
  // flushed at once (flushSync) and nothing is lost on exit.
  const destination = pino.destination({ dest: 1, sync: true, minLength: 4096 });
  setInterval(() => destination.flushSync(), 250).unref();
  return destination;
}

/** At most this long, and only these characters: an incoming X-Request-Id is kept only if it is plainly an id. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The id of a request: the one a proxy in front sent in X-Request-Id when it looks like an
 * id (letters, digits, `._:-`, at most 128 characters), else a new UUID. A hostile value
 * (newlines, control characters, kilobytes) is never echoed or logged.
 */
export function requestIdOf(header: string | string[] | undefined): string {
  return typeof header === "string" && REQUEST_ID.test(header) ? header : randomUUID();
}
