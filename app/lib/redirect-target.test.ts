import { describe, expect, it } from "vitest";

import { safeRedirectTarget } from "./redirect-target.ts";

describe("CMS redirect targets", () => {
  it.each([
    ["/jobs", "/jobs"],
    ["/de/company?x=1#top", "/de/company?x=1#top"],
    ["https://partner.example.com/jobs", "https://partner.example.com/jobs"],
  ])("allows %s", (destination, expected) => {
    expect(safeRedirectTarget(destination)).toBe(expected);
  });

  it.each(["//evil.example", "/\\evil.example", "javascript:alert(1)", "data:text/html,hi", "jobs", "/a\nb"])(
    "refuses %s",
    (destination) => {
      expect(safeRedirectTarget(destination)).toBeNull();
    },
  );
});
