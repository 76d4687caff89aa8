import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

import { describe, expect, it, vi } from "vitest";

// Spy on the one primitive a constant-time comparison may use.
const calls: Array<[Buffer, Buffer]> = [];
vi.mock("node:crypto", async (importOriginal) => {
  const actual = await importOriginal<typeof import("node:crypto")>();
  return {
    ...actual,
    timingSafeEqual: (a: Buffer, b: Buffer) => {
      calls.push([a, b]);
      return actual.timingSafeEqual(a, b);
    },
  };
});

// The site compares its secrets with the page cache's bearerMatches/secretMatches (decision 0046).
const { bearerMatches, secretMatches } = await import("@cms-site/page-cache");

describe("bearerMatches", () => {
  it.each([
    ["Bearer right-secret-0123456789", true],
    ["Bearer right-secret-012345678", false],
    ["Bearer right-secret-0123456789x", false],
    ["bearer right-secret-0123456789", false],
    ["Bearer ", false],
    ["", false],
    [`Bearer ${"x".repeat(10_000)}`, false],
  ])("%s -> %s, always through timingSafeEqual on two 32-byte digests", (header, expected) => {
    calls.length = 0;
    expect(bearerMatches(header, "right-secret-0123456789")).toBe(expected);
    // Whatever the lengths, one comparison of equal-length digests: no early exit that a
    // stopwatch could measure.
    expect(calls).toHaveLength(1);
    expect(calls[0]![0]).toHaveLength(32);
    expect(calls[0]![1]).toHaveLength(32);
  });
});

describe("secretMatches", () => {
  it.each([
    ["right-secret-0123456789", true],
    ["right-secret-012345678", false],
    ["", false],
    [null, false],
    [undefined, false],
  ])("%s -> %s, through timingSafeEqual on two 32-byte digests", (given, expected) => {
    calls.length = 0;
    expect(secretMatches(given, "right-secret-0123456789")).toBe(expected);
    expect(calls).toHaveLength(1);
    expect(calls[0]![0]).toHaveLength(32);
  });
});

/** Every .ts/.tsx file under a folder, tests left out. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (name === "node_modules" || name === "dist") return [];
    if (statSync(file).isDirectory()) return sources(file);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [file] : [];
  });
}

describe("secrets are compared in one place", () => {
  it("no site code compares a secret, token or Authorization header with == / === (only bearerMatches does, in constant time)", () => {
    const root = path.resolve(import.meta.dirname, "../..");
    const offending = ["app", "server", "packages"]
      .flatMap((folder) => sources(path.join(root, folder)))
      .flatMap((file) =>
        readFileSync(file, "utf8")
          .split("\n")
          .map((line, index) => ({ file: path.relative(root, file), line: index + 1, text: line }))
          .filter(({ text }) =>
            // An operand of ==/=== (either side) whose name says secret, token or authorization.
            /(===|!==|==|!=)\s*[\w.?$]*([Ss]ecret|SECRET|[Aa]uthorization|[Tt]oken)\w*\b(?!\s*\()|\b[\w.?$]*([Ss]ecret|SECRET|[Aa]uthorization|[Tt]oken)\w*\s*(===|!==|==|!=)/.test(
              text,
            ),
          ),
      );
    expect(offending).toEqual([]);
  });
});
