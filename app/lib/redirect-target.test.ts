import fc from "fast-check";
import { describe, expect, it } from "vitest";

import { safeRedirectPath, safeRedirectTarget, sameSitePath } from "./redirect-target.ts";

const SITE = "https://site.example";

/** Where a browser would go for this Location on this site. */
function destinationOf(location: string): URL {
  return new URL(location, `${SITE}/some/page`);
}

describe("CMS redirect targets", () => {
  it.each([
    ["/jobs", "/jobs"],
    ["/de/company?x=1#top", "/de/company?x=1#top"],
    ["https://partner.example.com/jobs", "https://partner.example.com/jobs"],
    ["//evil.example", "/evil.example"],
    ["/\\evil.example", "/evil.example"],
    ["/jobs/", "/jobs"],
  ])("turns %s into %s", (destination, expected) => {
    expect(safeRedirectTarget(destination)).toBe(expected);
  });

  it.each(["javascript:alert(1)", "data:text/html,hi", "jobs", "/a\nb", "/\t/evil.example", "/%zz"])(
    "refuses %s",
    (destination) => {
      expect(safeRedirectTarget(destination)).toBeNull();
    },
  );
});

describe("the sign-in redirect", () => {
  it.each([
    "//evil.com",
    "/\\evil.com",
    "/.//evil.com",
    "/a/..//evil.com",
    "/%2e//evil.com",
    "/%2e%2e//evil.com",
    "\\/evil.com",
    "/\t/evil.com",
    "https://evil.com",
    "javascript:alert(1)",
  ])("never leaves the site for %s", (value) => {
    const target = safeRedirectPath(value);
    expect(destinationOf(target).origin).toBe(SITE);
    expect(target).toMatch(/^\/(?![/\\])/);
  });

  it("keeps a real path with its query", () => {
    expect(safeRedirectPath("/account?tab=password")).toBe("/account?tab=password");
    expect(safeRedirectPath(null)).toBe("/account");
  });
});

describe("every redirect builder, fuzzed", () => {
  const piece = fc.constantFrom(
    "/",
    "//",
    "\\",
    "/\\",
    ".",
    "..",
    "%2e",
    "%2E%2E",
    "%2f",
    "%5c",
    "evil.com",
    "@",
    ":",
    "https:",
    "javascript:",
    "?",
    "#",
    "%09",
    "\t",
    " ",
    "a",
  );
  const hostile = fc.array(piece, { maxLength: 8 }).map((pieces) => pieces.join(""));

  it("a Location built from any input is a path on this site (or, for the CMS, an editor's absolute http(s) URL)", () => {
    fc.assert(
      fc.property(hostile, (value) => {
        const path = sameSitePath(value);
        if (path !== null) {
          expect(destinationOf(path).origin).toBe(SITE);
          expect(path).toMatch(/^\/(?![/\\])/);
        }
        expect(destinationOf(safeRedirectPath(value)).origin).toBe(SITE);
        const cms = safeRedirectTarget(value);
        if (cms !== null && !/^https?:\/\//.test(cms)) expect(destinationOf(cms).origin).toBe(SITE);
      }),
      { numRuns: 5_000 },
    );
  });
});
