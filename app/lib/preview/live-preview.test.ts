import { describe, expect, it } from "vitest";

import { isStrapiUpdate } from "./live-preview.ts";

const admin = "https://cms.example.com";

describe("isStrapiUpdate", () => {
  it("accepts the admin's strapiUpdate", () => {
    expect(isStrapiUpdate({ origin: admin, data: { type: "strapiUpdate" } }, admin)).toBe(true);
  });

  it("ignores the same message from any other origin, the site's own included", () => {
    for (const origin of ["https://evil.example", "https://www.example.com", "https://cms.example.com:8443", "null"]) {
      expect(isStrapiUpdate({ origin, data: { type: "strapiUpdate" } }, admin)).toBe(false);
    }
  });

  it("ignores the admin's other messages and malformed data", () => {
    for (const data of [
      { type: "strapiScript", payload: {} },
      { type: "previewReady" },
      "strapiUpdate",
      null,
      undefined,
      1,
    ]) {
      expect(isStrapiUpdate({ origin: admin, data }, admin)).toBe(false);
    }
  });
});
