/**
 * What code needs from a logger, and all it may assume: pino's logger (app/lib/logger.server.ts)
 * satisfies it, and so does the recording fake of the unit tests (tests/support/memory-log.ts).
 * Nothing imports a logger: server/index.ts makes the process's one and hands it down, as a
 * parameter to what it builds and through the router context (`logContext`) to loaders and
 * actions (docs/decisions/0049).
 */

/** Structured fields of a line, beside its message (`reqId`, `err`, …). */
export type LogFields = Record<string, unknown>;

/** One level: a message, or fields and a message (pino's order). */
export interface LogMethod {
  (message: string): void;
  (fields: LogFields, message: string): void;
}

export interface Log {
  error: LogMethod;
  warn: LogMethod;
  info: LogMethod;
  debug: LogMethod;
  /** The same logger, every line of which carries `bindings` too (a request's id). */
  child(bindings: LogFields): Log;
}
