import { describe, expect, it } from "vitest";

import { markedRuns } from "./marked-text.ts";

describe("markedRuns", () => {
  it("splits the CMS's marks into plain and marked runs", () => {
    expect(markedRuns("The \u0002cache\u0003 and the \u0002Cached\u0003 page")).toEqual([
      { text: "The ", marked: false },
      { text: "cache", marked: true },
      { text: " and the ", marked: false },
      { text: "Cached", marked: true },
      { text: " page", marked: false },
    ]);
  });

  it("keeps markup as text (React escapes it) and survives an unclosed mark", () => {
    expect(markedRuns("<b>x</b> \u0002y")).toEqual([
      { text: "<b>x</b> ", marked: false },
      { text: "y", marked: true },
    ]);
    expect(markedRuns("")).toEqual([]);
  });
});
