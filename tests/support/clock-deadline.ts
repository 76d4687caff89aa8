import { test } from "@playwright/test";

/**
 * An end-to-end test that waits for a clock (a TOTP step boundary, a sign-in growing old) adds
 * that wait to its deadline, so that the rest of the test keeps the budget of a flow that waits
 * for events only (playwright.config.ts's `timeout`), whatever the wait turned out to be. The
 * same for heavy work the test itself does, by its own budget (axe's scans: accessibility.spec.ts).
 */
export function extendDeadline(waitMs: number): void {
  const info = test.info();
  // 0 means no timeout at all (e.g. under --debug): nothing to extend.
  if (info.timeout > 0) info.setTimeout(info.timeout + Math.ceil(waitMs));
}

/** Waits `ms` of wall-clock time, the test's deadline moved by as much. */
export async function waitForClock(ms: number): Promise<void> {
  if (ms <= 0) return;
  extendDeadline(ms);
  await new Promise((resolve) => setTimeout(resolve, ms));
}
