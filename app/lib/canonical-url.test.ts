import fc from "fast-check";
import { describe, expect, it } from "vitest";

import { canonicalPath } from "./canonical-url.ts";

describe("canonicalPath", () => {
  it.each([
    ["/company", "/company"],
    ["/", "/"],
    ["", "/"],
    ["//company", "/company"],
    ["/%63ompany", "/company"],
    ["/en//company", "/en/company"],
    ["/company/", "/company"],
    ["/company///", "/company"],
    ["/x/../company", "/company"],
    ["/./company/.", "/company"],
    ["/%2e%2e/company", "/company"],
    ["/..", "/"],
    ["//evil.com/", "/evil.com"],
    ["/\\evil.com", "/evil.com"],
    ["\\\\evil.com", "/evil.com"],
    ["/caf%c3%a9", "/caf%C3%A9"],
    ["/café", "/caf%C3%A9"],
    ["/a%20b", "/a%20b"],
    ["/a b", "/a%20b"],
    ["/a:b@c,d;e=f+g$h&i", "/a:b@c,d;e=f+g$h&i"],
    ["/_.data", "/_.data"],
    ["/company/_.data", "/company/_.data"],
  ])("%s becomes %s", (raw, expected) => {
    expect(canonicalPath(raw)).toEqual({ ok: true, path: expected });
  });

  it.each(["/%", "/%zz", "/%ff", "/a%2fb", "/a%5cb", "/a%00b", "/a%0d%0ab"])("%s has no canonical form", (raw) => {
    expect(canonicalPath(raw).ok).toBe(false);
  });

  it("is idempotent, and never starts with two slashes or a backslash", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom("/", "\\", ".", "%2e", "%2F", "%5C", "a", "é", "%", "%41", " ") }),
        (raw) => {
          const once = canonicalPath(raw);
          if (!once.ok) return;
          expect(once.path).toMatch(/^\/(?![/\\])/);
          expect(canonicalPath(once.path)).toEqual(once);
        },
      ),
      { numRuns: 2_000 },
    );
  });
});
