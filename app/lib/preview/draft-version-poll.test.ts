import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { MAX_BACKOFF_MS, POLL_INTERVAL_MS, startDraftVersionPoll, type VersionAnswer } from "./draft-version-poll.ts";

/** A document whose visibility the test sets. */
function fakeDocument() {
  const events = new EventTarget();
  const doc = {
    visibilityState: "visible" as DocumentVisibilityState,
    addEventListener: events.addEventListener.bind(events),
    removeEventListener: events.removeEventListener.bind(events),
    show(state: DocumentVisibilityState) {
      doc.visibilityState = state;
      events.dispatchEvent(new Event("visibilitychange"));
    },
  };
  return doc;
}

/** A poll whose answers come from `answers` in turn (the last repeated); counts requests and changes. */
function poll(answers: VersionAnswer[], doc = fakeDocument()) {
  const counts = { requests: 0, changes: 0 };
  const stop = startDraftVersionPoll({
    fetchVersion: async () => answers[Math.min(counts.requests++, answers.length - 1)]!,
    onChange: () => counts.changes++,
    document: doc as unknown as Document,
  });
  return { counts, stop, doc };
}

beforeEach(() => void vi.useFakeTimers());
afterEach(() => void vi.useRealTimers());

describe("startDraftVersionPoll", () => {
  it("asks at once, then every interval; revalidates when the version moves, not on the first answer", async () => {
    const { counts, stop } = poll([{ version: "a" }, { version: "a" }, { version: "b" }, { version: "b" }]);
    await vi.advanceTimersByTimeAsync(0);
    expect(counts).toEqual({ requests: 1, changes: 0 });
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS);
    expect(counts).toEqual({ requests: 2, changes: 0 });
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS);
    expect(counts).toEqual({ requests: 3, changes: 1 });
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS);
    expect(counts).toEqual({ requests: 4, changes: 1 });
    stop();
    expect(vi.getTimerCount()).toBe(0);
  });

  it("is paused while the tab is hidden (no timer) and asks at once when it shows again", async () => {
    const { counts, doc, stop } = poll([{ version: "a" }]);
    await vi.advanceTimersByTimeAsync(0);
    doc.show("hidden");
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(10 * POLL_INTERVAL_MS);
    expect(counts.requests).toBe(1);
    doc.show("visible");
    await vi.advanceTimersByTimeAsync(0);
    expect(counts.requests).toBe(2);
    expect(vi.getTimerCount()).toBe(1);
    stop();
  });

  it("backs off on failures, doubling up to the maximum, and returns to the interval after a success", async () => {
    const failures = Array.from({ length: 8 }, (): VersionAnswer => "failed");
    const { counts, stop } = poll([...failures, { version: "a" }]);
    await vi.advanceTimersByTimeAsync(0);
    let wait = POLL_INTERVAL_MS;
    for (let request = 2; request <= 9; request++) {
      wait = Math.min(wait * 2, MAX_BACKOFF_MS);
      await vi.advanceTimersByTimeAsync(wait - 1);
      expect(counts.requests, `request ${request} waits ${wait} ms`).toBe(request - 1);
      await vi.advanceTimersByTimeAsync(1);
      expect(counts.requests).toBe(request);
      expect(vi.getTimerCount()).toBeLessThanOrEqual(1);
    }
    expect(wait).toBe(MAX_BACKOFF_MS);
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS);
    expect(counts.requests).toBe(10);
    stop();
  });

  it("stops for good when the address is no longer in preview", async () => {
    const { counts, doc } = poll([{ version: "a" }, "gone"]);
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS);
    expect(counts.requests).toBe(2);
    expect(vi.getTimerCount()).toBe(0);
    doc.show("hidden");
    doc.show("visible");
    await vi.advanceTimersByTimeAsync(10 * POLL_INTERVAL_MS);
    expect(counts.requests).toBe(2);
  });
});
