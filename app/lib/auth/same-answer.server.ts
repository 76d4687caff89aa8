import type { Log } from "../log.ts";

/**
 * Answers that must not tell whether an account exists (registration, forgot password) must
 * not take a different time either: Strapi hashes a password and writes a user only for a
 * new address, and writes a reset code and sends a mail only for a known one.
 */

/** How long registration takes to answer, whatever happened (Strapi's registration takes about 150 ms). */
export const REGISTER_ANSWER_MS = 1_000;

/**
 * Runs `work` and settles exactly `ms` after the call: with the work's outcome (value or
 * error) when it finished by then; otherwise with `late()`, and the work finishes in the
 * background (a failure is logged to `log`). So the time of the answer never depends on the work.
 */
export async function settleAfter<T>(
  ms: number,
  work: Promise<T>,
  late: () => T,
  label: string,
  log: Pick<Log, "warn">,
): Promise<T> {
  const settled = work.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  const deadline = new Promise<"late">((resolve) => setTimeout(() => resolve("late"), ms));
  const first = await Promise.race([settled, deadline]);
  if (first === "late") {
    void settled.then((outcome) => {
      if ("error" in outcome) logFailure(log, label, outcome.error);
    });
    return late();
  }
  await deadline;
  if ("error" in first) throw first.error;
  return first.value;
}

/** Starts `work` and does not wait for it: the answer's time never depends on it. A failure is logged to `log`. */
export function inBackground(work: () => Promise<unknown>, label: string, log: Pick<Log, "warn">): void {
  void Promise.resolve()
    .then(work)
    .catch((error: unknown) => logFailure(log, label, error));
}

function logFailure(log: Pick<Log, "warn">, label: string, error: unknown) {
  log.warn(`[auth] ${label} failed in the background: ${(error as Error)?.message ?? String(error)}`);
}
