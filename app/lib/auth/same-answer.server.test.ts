import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { inBackground, settleAfter } from "./same-answer.server.ts";
import { memoryLog } from "../../../tests/support/memory-log.ts";

/** A promise settled by hand, to stand for a CMS call that answers whenever the test says. */
function pending<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Records when (in fake time) a promise settled, and how. */
function watch<T>(promise: Promise<T>) {
  const state: { at?: number; value?: T; error?: unknown } = {};
  promise.then(
    (value) => Object.assign(state, { at: Date.now(), value }),
    (error: unknown) => Object.assign(state, { at: Date.now(), error }),
  );
  return state;
}

describe("settleAfter: the answer's time does not depend on the work", () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("a quick success is answered at the fixed time, not before", async () => {
    const work = pending<string>();
    const answer = watch(settleAfter(1_000, work.promise, () => "late", "test", memoryLog()));
    work.resolve("done");
    await vi.advanceTimersByTimeAsync(999);
    expect(answer.at).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(answer).toEqual({ at: 1_000, value: "done" });
  });

  it("a quick failure is thrown at the fixed time, not before", async () => {
    const work = pending<string>();
    const answer = watch(settleAfter(1_000, work.promise, () => "late", "test", memoryLog()));
    work.reject(new Error("closed"));
    await vi.advanceTimersByTimeAsync(999);
    expect(answer.at).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(answer.at).toBe(1_000);
    expect((answer.error as Error).message).toBe("closed");
  });

  it("slow work is answered with late() at the fixed time; its later failure is logged", async () => {
    const log = memoryLog();
    const work = pending<string>();
    const answer = watch(settleAfter(1_000, work.promise, () => "late", "registration", log));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(answer).toEqual({ at: 1_000, value: "late" });
    work.reject(new Error("CMS down"));
    await vi.advanceTimersByTimeAsync(0);
    expect(log.messages("warn")).toEqual(["[auth] registration failed in the background: CMS down"]);
  });
});

describe("inBackground", () => {
  it("does not wait for the work, and logs its failure", async () => {
    const log = memoryLog();
    const work = pending<void>();
    let started = false;
    inBackground(
      async () => {
        started = true;
        await work.promise;
      },
      "forgot-password",
      log,
    );
    await Promise.resolve();
    expect(started).toBe(true);
    work.reject(new Error("mail failed"));
    await vi.waitFor(() =>
      expect(log.messages("warn")).toEqual(["[auth] forgot-password failed in the background: mail failed"]),
    );
  });

  it("a work that throws at once is logged too, not thrown at the caller", async () => {
    const log = memoryLog();
    expect(() =>
      inBackground(
        () => {
          throw new Error("sync");
        },
        "x",
        log,
      ),
    ).not.toThrow();
    await vi.waitFor(() => expect(log.messages("warn")).toEqual(["[auth] x failed in the background: sync"]));
  });
});
