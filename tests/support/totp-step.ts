import { setTimeout as sleep } from "node:timers/promises";

import { msLeftInStep, TOTP_PERIOD_SECONDS } from "./totp.ts";

const STEP_MS = TOTP_PERIOD_SECONDS * 1000;

/** The longest `withinOneStep(ms)` waits: what a test that calls it adds to its deadline (docs/testing.md). */
export const longestStepWait = (ms: number) => ms + 50;

/**
 * Waits, when needed, until the current TOTP step has at least `ms` left, so that a test's codes
 * for "this step" and "the next step" stay within the CMS's window (one step either side) for
 * that long. What is waited for is the clock's boundary itself, not some other event. Before it
 * waits, `onWait` gets how long it will wait: an end-to-end test adds that to its deadline
 * (tests/support/clock-deadline.ts). Returns the time waited.
 */
export async function withinOneStep(ms: number, onWait?: (waitMs: number) => void): Promise<number> {
  if (ms >= STEP_MS) throw new Error(`withinOneStep: at most ${STEP_MS} ms`);
  const left = msLeftInStep();
  if (left >= ms) return 0;
  const wait = left + 50;
  onWait?.(wait);
  await sleep(wait);
  return wait;
}

/** A time in step `offset` from now's (0: this one, 1: the next), for totpCode(secret, time). */
export const stepTime = (offset: number, now = Date.now()) => now + offset * STEP_MS;
