import { setTimeout as sleep } from "node:timers/promises";

import { msLeftInStep, TOTP_PERIOD_SECONDS } from "./totp.ts";

const STEP_MS = TOTP_PERIOD_SECONDS * 1000;

/**
 * Waits, when needed, until the current TOTP step has at least `ms` left, so that a test's codes
 * for "this step" and "the next step" stay within the CMS's window (one step either side) for
 * that long. What is waited for is the clock's boundary itself, not some other event.
 */
export async function withinOneStep(ms: number): Promise<void> {
  if (ms >= STEP_MS) throw new Error(`withinOneStep: at most ${STEP_MS} ms`);
  const left = msLeftInStep();
  if (left < ms) await sleep(left + 50);
}

/** A time in step `offset` from now's (0: this one, 1: the next), for totpCode(secret, time). */
export const stepTime = (offset: number, now = Date.now()) => now + offset * STEP_MS;
