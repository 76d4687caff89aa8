import { afterEach, beforeEach, expect, vi } from "vitest";

// Noise is a bug: a test that makes the code log console.error fails, unless the test
// itself replaced console.error (vi.spyOn) to check what is logged.
let logged: unknown[][] = [];

beforeEach(() => {
  logged = [];
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    logged.push(args);
  });
});

afterEach(() => {
  const unexpected = vi.isMockFunction(console.error) ? logged : [];
  vi.restoreAllMocks();
  expect(unexpected, "console.error was called").toEqual([]);
});
