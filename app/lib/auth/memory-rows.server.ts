import type { DBAdapter } from "better-auth";

import type { Log } from "../log.ts";

/**
 * better-auth without a database keeps its rows in an in-process memory adapter: an OAuth
 * sign-in writes a user, an account and a session there (and the OAuth state a verification
 * row), and nothing ever deletes them. The site needs none of them once the callback is over:
 * the session lives in its encrypted cookie and the identity in the CMS. So rows older than a
 * few minutes (far longer than any callback) are swept on a timer: the table stays as small as
 * the sign-ins of those few minutes.
 */

const MODELS = ["session", "account", "verification", "user"] as const;

/** The part of better-auth's adapter the sweep uses. */
export type RowAdapter = Pick<DBAdapter, "deleteMany" | "count">;

export async function sweepMemoryRows(adapter: RowAdapter, olderThan: Date): Promise<number> {
  let removed = 0;
  for (const model of MODELS) {
    removed += await adapter.deleteMany({ model, where: [{ field: "createdAt", value: olderThan, operator: "lt" }] });
  }
  return removed;
}

export async function countMemoryRows(adapter: RowAdapter): Promise<number> {
  let total = 0;
  for (const model of MODELS) total += await adapter.count({ model });
  return total;
}

export const MEMORY_ROW_MAX_AGE_MS = 10 * 60_000;

/** Sweeps every minute; the timer never keeps the process alive. A failed sweep is logged to `log`. */
export function startMemoryRowSweeper(
  adapter: () => Promise<RowAdapter>,
  log: Pick<Log, "error">,
  options: { intervalMs?: number; maxAgeMs?: number; now?: () => number } = {},
): () => void {
  const now = options.now ?? Date.now;
  const timer = setInterval(() => {
    adapter()
      .then((rows) => sweepMemoryRows(rows, new Date(now() - (options.maxAgeMs ?? MEMORY_ROW_MAX_AGE_MS))))
      .catch((error: unknown) => log.error({ err: error }, "[auth] sweeping better-auth's memory rows failed"));
  }, options.intervalMs ?? 60_000);
  timer.unref();
  return () => clearInterval(timer);
}
